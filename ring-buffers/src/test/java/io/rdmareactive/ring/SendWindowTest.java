package io.rdmareactive.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class SendWindowTest {

    enum Kind { COMMIT, SEND, COMPLETE, CREDIT }

    /** How the step picks its target position relative to the legal window [current, bound]. */
    enum Target { LEGAL, STAY, TO_BOUND, BACKWARDS, BEYOND, MISALIGNED, ANY }

    record Step(Kind kind, Target target, long amount) {
    }

    @Provide
    Arbitrary<Integer> capacities() {
        return Arbitraries.integers().between(3, 30).map(shift -> 1 << shift);
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        final Arbitrary<Step> step = Combinators.combine(
            Arbitraries.of(Kind.class),
            // mostly legal steps, so that the positions get somewhere
            Arbitraries.of(Target.LEGAL, Target.LEGAL, Target.LEGAL, Target.LEGAL, Target.STAY, Target.TO_BOUND,
                Target.BACKWARDS, Target.BEYOND, Target.MISALIGNED, Target.ANY),
            Arbitraries.longs().between(0, Long.MAX_VALUE))
            .as(Step::new);
        return step.list().ofMaxSize(300);
    }

    /** The model: the positions the window must hold, computed independently of it. */
    static final class Model {
        final int capacity;
        long committed;
        long sent;
        long completed;
        long credited;

        Model(final int capacity) {
            this.capacity = capacity;
        }

        long released() {
            return Math.min(completed, credited);
        }

        long current(final Kind kind) {
            return switch (kind) {
                case COMMIT -> committed;
                case SEND -> sent;
                case COMPLETE -> completed;
                case CREDIT -> credited;
            };
        }

        long bound(final Kind kind) {
            return switch (kind) {
                case COMMIT -> released() + capacity;
                case SEND -> committed;
                case COMPLETE, CREDIT -> sent;
            };
        }

        void set(final Kind kind, final long position) {
            switch (kind) {
                case COMMIT -> committed = position;
                case SEND -> sent = position;
                case COMPLETE -> completed = position;
                case CREDIT -> credited = position;
            }
        }
    }

    private static long target(final Step step, final long current, final long bound) {
        final long window = bound - current;
        return switch (step.target()) {
            case LEGAL -> current + ((step.amount() % (window + 1)) & -RingPositions.ALIGNMENT);
            case STAY -> current;
            case TO_BOUND -> bound;
            case BACKWARDS -> current - 1 - (step.amount() % (1L << 40));
            case BEYOND -> bound + 1 + (step.amount() % (1L << 40));
            case MISALIGNED -> current + ((step.amount() % (window + 1)) | 1);
            case ANY -> step.amount() - (1L << 40);
        };
    }

    private static PositionCheck apply(final SendWindow window, final Kind kind, final long position) {
        return switch (kind) {
            case COMMIT -> window.commitTo(position);
            case SEND -> window.sendTo(position);
            case COMPLETE -> window.completeTo(position);
            case CREDIT -> window.creditTo(position);
        };
    }

    @Property(tries = 300)
    void everyStepKeepsTheInvariantsAppliesLegalAdvancesAndIgnoresTheRest(
        @ForAll("capacities") final int capacity, @ForAll("steps") final List<Step> steps) {
        final SendWindow window = new SendWindow(capacity);
        final Model model = new Model(capacity);
        for (final Step step : steps) {
            final long current = model.current(step.kind());
            final long bound = model.bound(step.kind());
            final long position = target(step, current, bound);
            final boolean legal = position >= current && position <= bound && position % RingPositions.ALIGNMENT == 0;

            final PositionCheck check = apply(window, step.kind(), position);

            assertThat(check.isAccepted()).as("%s to %d in [%d, %d]", step.kind(), position, current, bound).isEqualTo(legal);
            if (legal) {
                model.set(step.kind(), position);
            } else {
                assertThat(check).isEqualTo(position < current ? PositionCheck.BACKWARDS
                    : position > bound ? PositionCheck.BEYOND_LIMIT : PositionCheck.MISALIGNED);
            }
            assertThat(window.committed()).isEqualTo(model.committed);
            assertThat(window.sent()).isEqualTo(model.sent);
            assertThat(window.completed()).isEqualTo(model.completed);
            assertThat(window.credited()).isEqualTo(model.credited);
            assertThat(window.released()).isEqualTo(model.released());
            assertThat(window.limit()).isEqualTo(model.released() + capacity);
            assertThat(window.unsent()).isEqualTo((int) (model.committed - model.sent));

            // the invariants, spelled out here rather than trusted to invariantsHold()
            assertThat(model.released()).isNotNegative();
            assertThat(model.completed).isLessThanOrEqualTo(model.sent);
            assertThat(model.credited).isLessThanOrEqualTo(model.sent);
            assertThat(model.sent).isLessThanOrEqualTo(model.committed);
            assertThat(model.committed - model.released()).isLessThanOrEqualTo(capacity);
            assertThat(window.invariantsHold()).isTrue();
        }
    }

    @Property(tries = 300)
    void unsentPiecesCoverExactlyWhatIsCommittedButNotSent(
        @ForAll("capacities") final int capacity, @ForAll("steps") final List<Step> steps) {
        final SendWindow window = new SendWindow(capacity);
        final Model model = new Model(capacity);
        final RingSplit split = new RingSplit();
        for (final Step step : steps) {
            final long position = target(step, model.current(step.kind()), model.bound(step.kind()));
            if (apply(window, step.kind(), position).isAccepted()) {
                model.set(step.kind(), position);
            }
            final int pieces = window.unsentPieces(split);
            assertThat(pieces).isEqualTo(split.count()).isBetween(0, 2);
            assertThat(split.totalLength()).isEqualTo(window.unsent());
            if (pieces > 0) {
                assertThat(split.firstOffset()).isEqualTo(RingPositions.index(window.sent(), capacity));
            }
        }
    }

    @Property
    void aFullRoundTripReleasesEverythingCommitted(
        @ForAll("capacities") final int capacity, @ForAll @Size(max = 50) final List<@IntRange(min = 0, max = 1 << 30) Integer> commits) {
        final SendWindow window = new SendWindow(capacity);
        for (final int raw : commits) {
            final long target = window.committed() + ((raw % (capacity + 1)) & -RingPositions.ALIGNMENT);
            assertThat(window.commitTo(target)).isEqualTo(PositionCheck.ACCEPTED);
            assertThat(window.sendTo(window.committed())).isEqualTo(PositionCheck.ACCEPTED);
            assertThat(window.creditTo(window.sent())).isEqualTo(PositionCheck.ACCEPTED);
            // credit alone frees nothing while the adapter may still read the memory
            assertThat(window.released()).isLessThanOrEqualTo(window.completed());
            assertThat(window.completeTo(window.sent())).isEqualTo(PositionCheck.ACCEPTED);
            assertThat(window.released()).isEqualTo(window.committed());
            assertThat(window.limit()).isEqualTo(window.committed() + capacity);
        }
    }

    @Example
    void creditForUnsentBytesIsRejected() {
        final SendWindow window = new SendWindow(1024);
        window.commitTo(256);
        window.sendTo(128);
        assertThat(window.creditTo(256)).isEqualTo(PositionCheck.BEYOND_LIMIT);
        assertThat(window.creditTo(64)).isEqualTo(PositionCheck.ACCEPTED);
        assertThat(window.creditTo(32)).isEqualTo(PositionCheck.BACKWARDS);
        assertThat(window.creditTo(100)).isEqualTo(PositionCheck.MISALIGNED);
        assertThat(window.credited()).isEqualTo(64);
        assertThat(window.commitTo(1024 + 1)).isEqualTo(PositionCheck.BEYOND_LIMIT);
        assertThat(window.toString()).contains("committed=256", "sent=128", "credited=64");
    }

    @Property
    void rejectsCapacitiesThatAreNotPowersOfTwoOrBelowAgronasMinimum(@ForAll final int capacity) {
        Assume.that(Integer.bitCount(capacity) != 1 || capacity < 8 || capacity > RingBuffers.MAX_CAPACITY);
        assertThatThrownBy(() -> new SendWindow(capacity))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("send window capacity " + capacity);
    }
}
