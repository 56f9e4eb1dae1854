package io.rdmareactive;

/**
 * {@link AuthenticatedHandshakeTest} on real verbs (the Soft-RoCE guest): the same secret carries every interaction
 * model, another secret is refused, the server keeps serving. The nonces and the MAC fit the 55 bytes of private
 * data that the verbs provider carries; the proof and the keys travel as SENDs over the connected queue pair.
 */
@OnVerbs
class VerbsAuthenticatedHandshakeTest extends AuthenticatedHandshakeTest {

    VerbsAuthenticatedHandshakeTest(final TestTransport transport) {
        super(transport);
    }
}
