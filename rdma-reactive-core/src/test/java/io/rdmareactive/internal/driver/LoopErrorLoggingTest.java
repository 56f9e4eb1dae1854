package io.rdmareactive.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.CapturedLogs;
import java.nio.ByteBuffer;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

/**
 * What an event loop does with the errors its agent throws: counts every one, and logs the 1st, 2nd, 4th, 8th ... at
 * ERROR with the error, so a loop that fails on each turn cannot flood the log.
 */
class LoopErrorLoggingTest {

    @Test
    void everyErrorIsCountedAndThePowersOfTwoAreLoggedAtErrorWithTheirException() {
        final CountersManager counters = new CountersManager(new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024)));
        final AtomicCounter errors = counters.newCounter("errors");
        final EventLoopGroup.CountingErrorHandler handler = new EventLoopGroup.CountingErrorHandler("log-test", errors);
        try (CapturedLogs logs = CapturedLogs.open()) {
            for (int i = 1; i <= 9; i++) {
                handler.onError(new IllegalStateException("error " + i));
            }
            final List<CapturedLogs.Entry> logged = logs.of(EventLoopGroup.class);
            assertThat(logged).extracting(CapturedLogs.Entry::level).containsOnly("ERROR");
            assertThat(logged).extracting(entry -> entry.error().getMessage())
                .containsExactly("error 1", "error 2", "error 4", "error 8");
            assertThat(logged.getFirst().message()).isEqualTo("runtime log-test, thread "
                + Thread.currentThread().getName() + ": error 1 (logged at 1, 2, 4, 8, ...; the 'errors' counter has "
                + "every one)");
            assertThat(errors.get()).as("the errors counter").isEqualTo(9);
        }
    }
}
