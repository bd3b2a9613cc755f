// The C library, visible in every file of mediator-bench: MediatorPlatform chooses it for the platform.
@_exported import MediatorPlatform
