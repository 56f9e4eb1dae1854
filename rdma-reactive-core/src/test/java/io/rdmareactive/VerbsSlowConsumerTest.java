package io.rdmareactive;

import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link SlowConsumerTest} on real verbs (the Soft-RoCE guest): a slow subscriber holds the producer back with
 * nothing dropped and memory bounded.
 */
@Tag("verbs")
class VerbsSlowConsumerTest extends SlowConsumerTest {

    @BeforeAll
    static void onVerbs() {
        VerbsTestEnvironment.assumeVerbs();
        System.setProperty(ShmTestSupport.PROVIDER_PROPERTY, "verbs");
        System.setProperty(ShmTestSupport.SCALE_PROPERTY, "0.1");
    }

    @AfterAll
    static void backToDefaults() {
        System.clearProperty(ShmTestSupport.PROVIDER_PROPERTY);
        System.clearProperty(ShmTestSupport.SCALE_PROPERTY);
    }
}
