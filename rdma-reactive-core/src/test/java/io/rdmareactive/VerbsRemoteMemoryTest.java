package io.rdmareactive;

/**
 * {@link RemoteMemoryTest} on real verbs (the Soft-RoCE guest): reads, writes and atomics through the adapter, the
 * descriptor's refusals before posting, and a closed region refused by the peer's adapter with a typed error.
 */
@OnVerbs(scale = 0.1)
class VerbsRemoteMemoryTest extends RemoteMemoryTest {

    VerbsRemoteMemoryTest(final TestTransport transport) {
        super(transport);
    }
}
