package io.rdmareactive.spi.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** providers.md's SPI skeleton runs: the bytes and the immediate of one WRITE WITH IMMEDIATE arrive. */
class SpiRoundTripTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aWriteWithImmediateLandsInTheListenersMemoryAndCompletesItsReceive() {
        final String address = "spi-round-trip-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final SpiRoundTrip.Arrival arrival = SpiRoundTrip.writeWithImmediate("shm", address);
        assertThat(arrival.immediate()).as("the immediate the receive completion reported").isEqualTo(42);
        assertThat(arrival.firstWord()).as("the bytes written into the listener's region").isEqualTo(4711L);
    }
}
