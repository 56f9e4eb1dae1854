package io.rdmareactive;

import java.time.Duration;

/**
 * {@link ParkedConnectionsTest} on real verbs (the Soft-RoCE guest): idle verbs connections are parked too, with no
 * peer to ring them, their completion queues armed instead; a keepalive or a request arriving is a completion that
 * rings the connection's doorbell, and every connection answers its next request and ends with its server. Fewer
 * connections and longer liveness bounds than on shared memory: the guest emulates its processor.
 */
@OnVerbs
class VerbsParkedConnectionsTest extends ParkedConnectionsTest {

    VerbsParkedConnectionsTest(final TestTransport transport) {
        super(transport);
    }

    @Override
    protected int connectionCount() {
        return 10;
    }

    @Override
    protected Duration keepalive() {
        return Duration.ofMillis(250);
    }

    @Override
    protected Duration livenessTimeout() {
        return Duration.ofSeconds(3);
    }
}
