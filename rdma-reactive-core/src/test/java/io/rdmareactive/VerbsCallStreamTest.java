package io.rdmareactive;

/**
 * {@link CallStreamTest} on real verbs (the Soft-RoCE guest): many calls in flight on one call stream, each answered
 * once to its own call whatever was given up or failed meanwhile, and a caller that breaks the call stream's rules
 * loses its connection with the rule named.
 */
@OnVerbs(scale = 0.1)
class VerbsCallStreamTest extends CallStreamTest {

    VerbsCallStreamTest(final TestTransport transport) {
        super(transport);
    }
}
