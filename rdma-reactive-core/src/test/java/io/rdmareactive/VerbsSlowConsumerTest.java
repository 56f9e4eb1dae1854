package io.rdmareactive;

/**
 * {@link SlowConsumerTest} on real verbs (the Soft-RoCE guest): a slow subscriber holds the producer back with
 * nothing dropped and memory bounded.
 */
@OnVerbs(scale = 0.1)
class VerbsSlowConsumerTest extends SlowConsumerTest {

    VerbsSlowConsumerTest(final TestTransport transport) {
        super(transport);
    }
}
