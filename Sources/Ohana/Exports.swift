@_exported import OhanaCore
@_exported import OhanaPhone
@_exported import OhanaText
@_exported import OhanaProcessors
@_exported import OhanaIO
@_exported import OhanaDedupe
@_exported import OhanaStore
