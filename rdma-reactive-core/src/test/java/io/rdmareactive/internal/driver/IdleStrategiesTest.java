package io.rdmareactive.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.function.Supplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdleStrategiesTest {

    @Test
    void namesWithoutParameters() {
        assertThat(IdleStrategies.parse("busy-spin")).isInstanceOf(BusySpinIdleStrategy.class);
        assertThat(IdleStrategies.parse("yielding")).isInstanceOf(YieldingIdleStrategy.class);
        assertThat(IdleStrategies.parse("no-op")).isInstanceOf(NoOpIdleStrategy.class);
        assertThat(IdleStrategies.parse("sleeping")).isInstanceOf(SleepingMillisIdleStrategy.class)
            .hasToString(new SleepingMillisIdleStrategy(1).toString());
        assertThat(IdleStrategies.parse("backoff")).isInstanceOf(BackoffIdleStrategy.class)
            .hasToString(new BackoffIdleStrategy().toString());
    }

    @Test
    void namesAreCaseInsensitiveAndBlanksAreIgnored() {
        assertThat(IdleStrategies.parse("  Busy-Spin ")).isInstanceOf(BusySpinIdleStrategy.class);
        assertThat(IdleStrategies.parse("BACKOFF : MaxSpins = 3 , maxPARK=2MS"))
            .hasToString(new BackoffIdleStrategy(3, 5, 1_000, 2_000_000).toString());
    }

    @Test
    void backoffWithAllParameters() {
        assertThat(IdleStrategies.parse("backoff:maxSpins=10,maxYields=5,minPark=1us,maxPark=1ms"))
            .hasToString(new BackoffIdleStrategy(10, 5, 1_000, 1_000_000).toString());
        assertThat(IdleStrategies.parse("backoff:maxSpins=0,maxYields=0,minPark=50ns,maxPark=1s"))
            .hasToString(new BackoffIdleStrategy(0, 0, 50, 1_000_000_000).toString());
        assertThat(IdleStrategies.parse("backoff:minPark=20µs,maxPark=20us"))
            .hasToString(new BackoffIdleStrategy(10, 5, 20_000, 20_000).toString());
    }

    @Test
    void backoffWithSomeParametersKeepsTheOtherDefaults() {
        assertThat(IdleStrategies.parse("backoff:maxYields=100"))
            .hasToString(new BackoffIdleStrategy(10, 100, 1_000, 1_000_000).toString());
    }

    @Test
    void sleepingPicksMillisForWholeMillisecondsAndNanosOtherwise() {
        assertThat(IdleStrategies.parse("sleeping:1ms")).isInstanceOf(SleepingMillisIdleStrategy.class)
            .hasToString(new SleepingMillisIdleStrategy(1).toString());
        assertThat(IdleStrategies.parse("sleeping:1s")).isInstanceOf(SleepingMillisIdleStrategy.class)
            .hasToString(new SleepingMillisIdleStrategy(1000).toString());
        assertThat(IdleStrategies.parse("sleeping:100us")).isInstanceOf(SleepingIdleStrategy.class)
            .hasToString(new SleepingIdleStrategy(100_000).toString());
        assertThat(IdleStrategies.parse("sleeping:1500us")).isInstanceOf(SleepingIdleStrategy.class);
        assertThat(IdleStrategies.parse("sleeping:0.5ms")).isInstanceOf(SleepingIdleStrategy.class)
            .hasToString(new SleepingIdleStrategy(500_000).toString());
        assertThat(IdleStrategies.parse("sleeping:PT0.002S")).isInstanceOf(SleepingMillisIdleStrategy.class)
            .hasToString(new SleepingMillisIdleStrategy(2).toString());
    }

    @Test
    void everyParseReturnsANewInstanceBecauseBackoffKeepsState() {
        final Supplier<IdleStrategy> supplier = IdleStrategies.supplier("backoff:maxSpins=1");
        assertThat(supplier.get()).isNotSameAs(supplier.get()).isInstanceOf(BackoffIdleStrategy.class);
        assertThat(IdleStrategies.parse("backoff")).isNotSameAs(IdleStrategies.parse("backoff"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"spin", "busyspin", "", " ", "backof", "sleep-ms", "noop", ":", "yielding2"})
    void unknownNamesAreRejectedWithTheValidForms(final String spec) {
        assertThatIllegalArgumentException().isThrownBy(() -> IdleStrategies.parse(spec))
            .withMessageContaining("unknown idle strategy")
            .withMessageContaining("'" + spec + "'")
            .withMessageContaining(IdleStrategies.VALID_FORMS);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "busy-spin:1", "yielding:x=1", "no-op:", "backoff:", "backoff:maxSpins", "backoff:maxSpins=-1",
        "backoff:maxSpins=1.5", "backoff:maxSpins=99999999999", "backoff:spins=1", "backoff:maxSpins=1,maxSpins=2",
        "backoff:minPark=1", "backoff:minPark=1h", "backoff:minPark=0ns", "backoff:maxPark=2s",
        "backoff:minPark=2ms,maxPark=1ms", "backoff:maxPark=99999999999999999999ns", "backoff:maxSpins=1,",
        "sleeping:", "sleeping:0ms", "sleeping:10", "sleeping:5m", "sleeping:1001ms", "sleeping:x=1ms"})
    void badParametersAreRejectedWithTheValidForms(final String spec) {
        assertThatIllegalArgumentException().isThrownBy(() -> IdleStrategies.parse(spec))
            .withMessageStartingWith("invalid idle strategy '" + spec + "': ")
            .withMessageContaining(IdleStrategies.VALID_FORMS);
    }

    @Test
    void errorsSayWhatIsWrong() {
        assertThatIllegalArgumentException().isThrownBy(() -> IdleStrategies.parse("busy-spin:1"))
            .withMessageContaining("'busy-spin' takes no parameters");
        assertThatIllegalArgumentException().isThrownBy(() -> IdleStrategies.parse("backoff:spins=1"))
            .withMessageContaining("unknown backoff parameter 'spins'");
        assertThatIllegalArgumentException().isThrownBy(() -> IdleStrategies.parse("backoff:minPark=2ms,maxPark=1ms"))
            .withMessageContaining("minPark (2000000 ns) is longer than maxPark (1000000 ns)");
        assertThatIllegalArgumentException().isThrownBy(() -> IdleStrategies.parse("sleeping:10"))
            .withMessageContaining("the sleep period '10' is not a duration: it has no unit");
        assertThatIllegalArgumentException().isThrownBy(() -> IdleStrategies.supplier("backoff:maxSpins=x"))
            .withMessageContaining("maxSpins must be a whole number");
    }

    @Test
    void nullIsNotAName() {
        org.assertj.core.api.Assertions.assertThatNullPointerException().isThrownBy(() -> IdleStrategies.parse(null));
    }

    @Test
    void defaultBacksOffOnSmallMachinesAndSpinsOnLargerOnes() {
        assertThat(IdleStrategies.defaultFor(1)).isEqualTo("backoff");
        assertThat(IdleStrategies.defaultFor(2)).isEqualTo("backoff");
        assertThat(IdleStrategies.defaultFor(3)).isEqualTo("backoff");
        assertThat(IdleStrategies.defaultFor(4)).isEqualTo("busy-spin");
        assertThat(IdleStrategies.defaultFor(64)).isEqualTo("busy-spin");
        assertThatIllegalArgumentException().isThrownBy(() -> IdleStrategies.defaultFor(0));
        for (int cores = 1; cores <= 8; cores++) {
            assertThat(IdleStrategies.parse(IdleStrategies.defaultFor(cores))).isNotNull();
        }
    }

    @Test
    void configuredReadsThePropertyThatTheBuildSets() {
        final String previous = System.getProperty(IdleStrategies.PROPERTY);
        try {
            System.setProperty(IdleStrategies.PROPERTY, "sleeping:2ms");
            assertThat(IdleStrategies.configured()).isEqualTo("sleeping:2ms");
            System.clearProperty(IdleStrategies.PROPERTY);
            assertThat(IdleStrategies.configured())
                .isEqualTo(IdleStrategies.defaultFor(Runtime.getRuntime().availableProcessors()));
        } finally {
            if (previous != null) {
                System.setProperty(IdleStrategies.PROPERTY, previous);
            }
        }
    }
}
