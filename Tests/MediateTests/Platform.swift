// The C library, visible in every file of this test module: MediatorPlatform chooses it for the
// platform.
@_exported import MediatorPlatform
