package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The marks a connection's producers leave for its loop: a commit to a stream the loop watches leaves none (the loop
 * looks anyway); once the loop stops watching, a commit marks again, and the loop learns which streams it dropped so
 * that it looks at them once more after the store that dropped them.
 */
class StreamMarksTest {

    @Test
    void aCommitMarksItsStreamUnlessTheLoopWatchesIt() {
        final StreamMarks marks = new StreamMarks(130);
        marks.markCommit(65);
        assertThat(marks.take(1)).as("an unwatched stream is marked").isEqualTo(1L << 1);

        assertThat(marks.watch(1, 1L << 1)).as("nothing was dropped").isZero();
        marks.markCommit(65);
        assertThat(marks.take(1)).as("a watched stream is not marked").isZero();

        assertThat(marks.watch(1, 0)).as("the dropped stream").isEqualTo(1L << 1);
        marks.markCommit(65);
        assertThat(marks.take(1)).as("marked again once dropped").isEqualTo(1L << 1);
    }

    @Test
    void otherMarksAreLeftWhateverTheLoopWatches() {
        final StreamMarks marks = new StreamMarks(64);
        marks.watch(0, 1L << 5);
        marks.mark(5); // a request, a cancel, credit to return: always marked
        assertThat(marks.take(0)).isEqualTo(1L << 5);
    }

    @Test
    void aParkedConnectionIsNotParkedWhileAStreamIsMarked() {
        final StreamMarks marks = new StreamMarks(64);
        marks.mark(3);
        assertThat(marks.park()).isFalse();
        marks.take(0);
        assertThat(marks.park()).isTrue();
        marks.unpark();
    }
}
