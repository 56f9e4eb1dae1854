package io.rdmareactive.perf.compare.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.rdmareactive.internal.driver.IdleStrategies;
import java.util.Locale;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One name, one strategy: the comparison's threads and Aeron get what an rdma-reactive event loop gets. */
class IdleTest {

    @ParameterizedTest
    @ValueSource(strings = {"busy-spin", "yielding", "backoff", "backoff:maxSpins=10,maxYields=20,minPark=1us,"
        + "maxPark=100us", "sleeping", "sleeping:100us", "no-op"})
    void everyFormIsTheStrategyRdmaReactiveMakesOfIt(final String spec) {
        final Idle idle = Idle.parse(spec);
        assertThat(idle.spec()).isEqualTo(spec.toLowerCase(Locale.ROOT));
        assertThat(idle.newStrategy()).isInstanceOf(IdleStrategies.parse(spec).getClass())
            .hasToString(IdleStrategies.parse(spec).toString());
    }

    @Test
    void backoffIsAgronasDefaultBackoffAsInTheLibrary() {
        assertThat(Idle.BACKOFF.newStrategy()).hasToString(new BackoffIdleStrategy().toString());
    }

    @Test
    void namesAreCaseInsensitiveAndEveryStrategyIsNew() {
        assertThat(Idle.parse(" Yielding ")).isEqualTo(Idle.YIELDING);
        assertThat(Idle.parse("busy-spin")).isEqualTo(Idle.BUSY_SPIN);
        assertThat(Idle.BACKOFF.newStrategy()).isNotSameAs(Idle.BACKOFF.newStrategy());
    }

    @Test
    void anUnknownFormIsRefusedWithTheLibrarysMessage() {
        assertThatIllegalArgumentException().isThrownBy(() -> Idle.parse("nap"))
            .withMessageContaining("unknown idle strategy 'nap'")
            .withMessageContaining("backoff:maxSpins=<n>,maxYields=<n>,minPark=<duration>,maxPark=<duration>");
        assertThatIllegalArgumentException().isThrownBy(() -> new Idle("sleeping:10"))
            .withMessageContaining("'10' is not a duration");
    }
}
