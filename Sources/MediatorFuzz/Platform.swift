// The C library, visible in every file of mediator-fuzz: MediatorPlatform chooses it for the platform.
@_exported import MediatorPlatform
