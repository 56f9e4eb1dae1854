package io.rdmareactive.perf.compare.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VerbsAddressesTest {

    @Test
    void everySessionListensOnAPortOfItsOwn() {
        final String first = VerbsAddresses.next("10.0.2.15:7490");
        final String second = VerbsAddresses.next("10.0.2.15:7490");
        assertThat(first).startsWith("10.0.2.15:");
        assertThat(second).startsWith("10.0.2.15:");
        assertThat(Integer.parseInt(second.substring(10))).isEqualTo(Integer.parseInt(first.substring(10)) + 1);
    }

    @Test
    void anAddressWithoutAPortIsRefused() {
        assertThatThrownBy(() -> VerbsAddresses.next("10.0.2.15")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("IP:PORT");
    }
}
