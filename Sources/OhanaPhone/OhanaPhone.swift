// OhanaPhone
