// OhanaCore
