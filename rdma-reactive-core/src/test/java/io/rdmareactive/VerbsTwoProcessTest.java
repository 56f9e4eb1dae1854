package io.rdmareactive;

import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link TwoProcessTest} on real verbs (the Soft-RoCE guest): a peer killed mid-stream, and checksummed messages of
 * mixed sizes from another JVM on three connections, scaled down for emulated hardware.
 */
@Tag("verbs")
class VerbsTwoProcessTest extends TwoProcessTest {

    @BeforeAll
    static void onVerbs() {
        VerbsTestEnvironment.assumeVerbs();
        System.setProperty(ShmTestSupport.PROVIDER_PROPERTY, "verbs");
        System.setProperty(ShmTestSupport.SCALE_PROPERTY, "0.01");
    }

    @AfterAll
    static void backToDefaults() {
        System.clearProperty(ShmTestSupport.PROVIDER_PROPERTY);
        System.clearProperty(ShmTestSupport.SCALE_PROPERTY);
    }
}
