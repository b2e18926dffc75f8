// OhanaText
