package io.rdmareactive;

import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link ParkedConnectionsTest} on real verbs (the Soft-RoCE guest): idle verbs connections are parked too, with no
 * peer to ring them, their completion queues armed instead; a keepalive or a request arriving is a completion that
 * rings the connection's doorbell, and every connection answers its next request and ends with its server. Fewer
 * connections and longer liveness bounds than on shared memory: the guest emulates its processor.
 */
@Tag("verbs")
class VerbsParkedConnectionsTest extends ParkedConnectionsTest {

    @BeforeAll
    static void onVerbs() {
        VerbsTestEnvironment.assumeVerbs();
        System.setProperty(ShmTestSupport.PROVIDER_PROPERTY, "verbs");
    }

    @AfterAll
    static void backToDefaults() {
        System.clearProperty(ShmTestSupport.PROVIDER_PROPERTY);
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
