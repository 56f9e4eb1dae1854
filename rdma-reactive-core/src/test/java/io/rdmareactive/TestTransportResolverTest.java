package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each API test class gets its own transport, from its own annotation, and nothing global decides it. */
class TestTransportResolverTest {

    @Test
    void aClassWithoutOnVerbsRunsOnSharedMemoryWithCountsAsWritten() {
        assertThat(TestTransportResolver.transportOf(CallStreamTest.class)).isEqualTo(TestTransport.SHM);
    }

    @Test
    void aClassOnVerbsRunsOnVerbsWithItsScaleAndItsSuperclassStaysOnSharedMemory() {
        assertThat(TestTransportResolver.transportOf(VerbsCallStreamTest.class))
            .isEqualTo(TestTransport.verbs(0.1));
        assertThat(TestTransportResolver.transportOf(VerbsAuthenticatedHandshakeTest.class))
            .isEqualTo(TestTransport.verbs(1));
        assertThat(TestTransportResolver.transportOf(VerbsCallStreamTest.class.getSuperclass()))
            .isEqualTo(TestTransport.SHM);
    }

    @Test
    void aTransportScalesCountsDownToItsFloorAndNamesItselfToAChildJvm() {
        assertThat(TestTransport.verbs(0.01).scaled(333_334, 2_000)).isEqualTo(3_333);
        assertThat(TestTransport.verbs(0.001).scaled(333_334, 2_000)).isEqualTo(2_000);
        assertThat(TestTransport.SHM.scaled(333_334, 2_000)).isEqualTo(333_334);
        assertThat(TestTransport.verbs(0.1).childJvmOptions())
            .containsExactly("-Drr.test.provider=verbs", "-Drr.test.scale=0.1");
        assertThat(TestTransport.ofThisJvm()).as("this JVM was started with no transport options")
            .isEqualTo(TestTransport.SHM);
    }
}
