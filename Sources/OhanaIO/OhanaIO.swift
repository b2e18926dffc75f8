// OhanaIO
