package io.rdmareactive;

/**
 * {@link TwoProcessTest} on real verbs (the Soft-RoCE guest): a peer killed mid-stream, and checksummed messages of
 * mixed sizes from another JVM on three connections, scaled down for emulated hardware.
 */
@OnVerbs(scale = 0.01)
class VerbsTwoProcessTest extends TwoProcessTest {

    VerbsTwoProcessTest(final TestTransport transport) {
        super(transport);
    }
}
