package io.rdmareactive;

import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * {@link AuthenticatedHandshakeTest} on real verbs (the Soft-RoCE guest): the same secret carries every interaction
 * model, another secret is refused, the server keeps serving. The nonces and the MAC fit the 55 bytes of private
 * data that the verbs provider carries; the proof and the keys travel as SENDs over the connected queue pair.
 */
@Tag("verbs")
class VerbsAuthenticatedHandshakeTest extends AuthenticatedHandshakeTest {

    @BeforeAll
    static void onVerbs() {
        VerbsTestEnvironment.assumeVerbs();
        System.setProperty(ShmTestSupport.PROVIDER_PROPERTY, "verbs");
    }

    @AfterAll
    static void backToDefaults() {
        System.clearProperty(ShmTestSupport.PROVIDER_PROPERTY);
    }
}
