// OhanaDedupe
