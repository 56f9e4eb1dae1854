package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class SequenceCheckerTest {

    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);

    private void deliver(final SequenceChecker checker, final long sequence, final int length) {
        message.putLong(8, sequence);
        checker.onMessage(message, 8, length);
    }

    @Test
    void messagesInOrderAreNeitherLostNorOutOfOrder() {
        final SequenceChecker checker = new SequenceChecker(32);
        for (long i = 0; i < 100; i++) {
            deliver(checker, i, 32);
        }
        assertThat(checker.received()).isEqualTo(100);
        assertThat(checker.gaps()).isZero();
        assertThat(checker.outOfOrder()).isZero();
        assertThat(checker.wrongLength()).isZero();
    }

    @Test
    void skippedSequenceNumbersCountAsLost() {
        final SequenceChecker checker = new SequenceChecker(32);
        deliver(checker, 0, 32);
        deliver(checker, 3, 32); // 1 and 2 never came
        deliver(checker, 4, 32);
        assertThat(checker.gaps()).isEqualTo(2);
        assertThat(checker.received()).isEqualTo(3);
    }

    @Test
    void repeatsAndWrongLengthsAreCounted() {
        final SequenceChecker checker = new SequenceChecker(32);
        deliver(checker, 0, 32);
        deliver(checker, 1, 32);
        deliver(checker, 1, 32);
        deliver(checker, 2, 16);
        assertThat(checker.outOfOrder()).isEqualTo(1);
        assertThat(checker.wrongLength()).isEqualTo(1);
    }

    @Test
    void lostIsTheShortfallOrTheGapsWhicheverIsLarger() {
        final SequenceChecker checker = new SequenceChecker(32);
        deliver(checker, 0, 32);
        deliver(checker, 2, 32);
        final SequenceChecker[] consumers = {checker};
        assertThat(ThroughputWorkload.lost(3, 2, consumers)).isEqualTo(1);
        assertThat(ThroughputWorkload.lost(5, 2, consumers)).isEqualTo(3); // the tail never came either
    }
}
