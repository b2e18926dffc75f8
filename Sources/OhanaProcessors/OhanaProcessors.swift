// OhanaProcessors
