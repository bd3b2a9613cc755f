// The C library, visible in every file of mediate: MediatorPlatform chooses it for the platform.
@_exported import MediatorPlatform
