package io.rdmareactive.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The mirrored-ring shape of DESIGN.md run end to end in one thread, to show that the arithmetic fits Agrona's rings:
 * producers claim, commit and abort in an Agrona many-to-one send ring; a "driver" finds the committed records,
 * cuts {@code [sent, committed)} with {@link SendWindow#unsentPieces(RingSplit)}, copies each piece to the same offsets
 * of the receiver's ring (the RDMA WRITE), and the receiver checks the advance, reads the records up to it, returns
 * credit in batches; the sender releases ring space at {@link SendWindow#released()}. Random interleavings of those
 * steps must deliver every committed message exactly once, in order, and never stall.
 *
 * <p>The receiver does not read its ring with an Agrona ring's {@code read}: that reads until it meets a record length
 * of zero, which the receiver's memory does not promise (Agrona 2.x one-to-one readers do not zero what they read, and
 * bytes of a later RDMA WRITE may land before its completion). It reads records only up to the position it checked.
 */
class MirroredRingTest {

    private static final int MSG_TYPE = 3;

    enum Action { CLAIM_COMMIT, CLAIM_ABORT, CLAIM_HOLD, COMMIT_HELD, SCAN, POST, DELIVER, CONSUME, CREDIT, RELEASE, PUMP }

    record Step(Action action, int size) {
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        // weighted so that the ring fills, drains and wraps several times within one sample
        final Arbitrary<Action> actions = Arbitraries.frequency(
            Tuple.of(8, Action.CLAIM_COMMIT), Tuple.of(1, Action.CLAIM_ABORT), Tuple.of(1, Action.CLAIM_HOLD),
            Tuple.of(2, Action.COMMIT_HELD), Tuple.of(2, Action.SCAN), Tuple.of(2, Action.POST),
            Tuple.of(2, Action.DELIVER), Tuple.of(2, Action.CONSUME), Tuple.of(2, Action.CREDIT),
            Tuple.of(2, Action.RELEASE), Tuple.of(3, Action.PUMP));
        return Combinators.combine(actions, Arbitraries.integers().between(0, Integer.MAX_VALUE))
            .as(Step::new).list().ofMinSize(20).ofMaxSize(300);
    }

    @Provide
    Arbitrary<Integer> capacities() {
        return Arbitraries.of(64, 128, 256, 1024);
    }

    /** A record a producer claimed, in claim (and so ring) order. */
    static final class Claim {
        final int seq;
        final int length;
        final int index;
        boolean aborted;
        boolean committed;

        Claim(final int seq, final int length, final int index) {
            this.seq = seq;
            this.length = length;
            this.index = index;
        }
    }

    static final class Mirror implements AutoCloseable {
        final int capacity;
        final OffHeapMemory senderMemory;
        final OffHeapMemory receiverMemory;
        final ManyToOneRingBuffer sendRing;
        final AtomicBuffer receiveRing;
        final SendWindow window;
        final RingSplit split = new RingSplit();
        final int threshold;
        final ArrayDeque<Claim> claims = new ArrayDeque<>();
        final List<Integer> delivered = new ArrayList<>();
        int nextSeq;
        long onTheWire; // posted and not yet delivered from here on
        long received;  // the receiver's view of the sender's position, checked
        long consumed;
        long lastReturned;
        int creditMessages;

        Mirror(final int capacity, final int divisor) {
            this.capacity = capacity;
            final long length = PageSize.roundUp(RingBuffers.requiredLength(capacity));
            senderMemory = OffHeapMemory.allocate(length);
            receiverMemory = OffHeapMemory.allocate(length);
            sendRing = RingBuffers.manyToOne(senderMemory, 0, capacity);
            receiveRing = receiverMemory.buffer(0, RingBuffers.requiredLength(capacity));
            window = new SendWindow(capacity);
            threshold = RingPositions.creditThreshold(capacity, divisor);
        }

        int messageLength(final int size) {
            return Integer.BYTES + size % (sendRing.maxMsgLength() - Integer.BYTES + 1);
        }

        Claim claim(final int size) {
            final int length = messageLength(size);
            final int index = sendRing.tryClaim(MSG_TYPE, length);
            if (index == RingBuffer.INSUFFICIENT_CAPACITY) {
                return null; // backpressure: the producer would stop requesting from upstream
            }
            final Claim claim = new Claim(nextSeq++, length, index);
            final AtomicBuffer buffer = sendRing.buffer();
            buffer.putInt(index, claim.seq);
            buffer.setMemory(index + Integer.BYTES, length - Integer.BYTES, (byte) claim.seq);
            claims.addLast(claim);
            return claim;
        }

        void commit(final Claim claim) {
            sendRing.commit(claim.index);
            claim.committed = true;
        }

        void abort(final Claim claim) {
            sendRing.abort(claim.index);
            claim.aborted = true;
        }

        void commitOldestHeld() {
            for (final Claim claim : claims) {
                if (!claim.committed && !claim.aborted) {
                    commit(claim);
                    return;
                }
            }
        }

        /** The driver learns how far records are committed: up to the first claimed but uncommitted record. */
        void scan() {
            final AtomicBuffer buffer = sendRing.buffer();
            final long tail = sendRing.producerPosition();
            long position = window.committed();
            while (position < tail) {
                final int recordLength = buffer.getIntVolatile(RingPositions.index(position, capacity));
                if (recordLength <= 0) {
                    break;
                }
                position += BitUtil.align(recordLength, RingPositions.ALIGNMENT);
            }
            assertThat(window.commitTo(position)).isEqualTo(PositionCheck.ACCEPTED);
        }

        void post() {
            assertThat(window.unsentPieces(split)).isBetween(0, 2);
            assertThat(window.sendTo(window.committed())).isEqualTo(PositionCheck.ACCEPTED);
        }

        /** The adapter moves the posted bytes to the same offsets of the peer's ring and completes the work. */
        void deliver() {
            final long sent = window.sent();
            assertThat(RingPositions.split(onTheWire, sent, capacity, split)).isTrue();
            copy(split.firstOffset(), split.firstLength());
            copy(split.secondOffset(), split.secondLength());
            onTheWire = sent;
            assertThat(window.completeTo(sent)).isEqualTo(PositionCheck.ACCEPTED);
            // the immediate tells the receiver how far the stream advanced: untrusted, checked
            assertThat(RingPositions.checkAdvance(received, sent, lastReturned + capacity)).isEqualTo(PositionCheck.ACCEPTED);
            received = sent;
        }

        private void copy(final int offset, final int length) {
            receiveRing.putBytes(offset, sendRing.buffer(), offset, length);
        }

        /** Reads at most {@code limit} messages, and never past the position the receiver checked. */
        void consume(final int limit) {
            int messages = 0;
            while (consumed < received && messages < limit) {
                final int index = RingPositions.index(consumed, capacity);
                final int recordLength = receiveRing.getInt(RecordDescriptor.lengthOffset(index));
                final int aligned = BitUtil.align(recordLength, RecordDescriptor.ALIGNMENT);
                // untrusted: a record must hold its header and lie within the ring and the checked range
                assertThat(recordLength).isGreaterThanOrEqualTo(RecordDescriptor.HEADER_LENGTH);
                assertThat(aligned).isLessThanOrEqualTo(RingPositions.bytesUntilWrap(consumed, capacity));
                assertThat(consumed + aligned).isLessThanOrEqualTo(received);
                final int type = receiveRing.getInt(RecordDescriptor.typeOffset(index));
                if (type != RingBuffer.PADDING_MSG_TYPE_ID) {
                    assertThat(type).isEqualTo(MSG_TYPE);
                    final int message = RecordDescriptor.encodedMsgOffset(index);
                    final int seq = receiveRing.getInt(message);
                    for (int i = Integer.BYTES; i < recordLength - RecordDescriptor.HEADER_LENGTH; i++) {
                        assertThat(receiveRing.getByte(message + i)).isEqualTo((byte) seq);
                    }
                    delivered.add(seq);
                    messages++;
                }
                consumed += aligned;
            }
        }

        void credit() {
            if (RingPositions.shouldReturnCredit(consumed, lastReturned, threshold)) {
                assertThat(window.creditTo(consumed)).isEqualTo(PositionCheck.ACCEPTED);
                lastReturned = consumed;
                creditMessages++;
            }
            assertThat(consumed - lastReturned).isLessThan(threshold);
        }

        /** The sender's ring space up to released() is free: zero it, as Agrona's consumers do, and move the head. */
        void release() {
            final long head = sendRing.consumerPosition();
            final long released = window.released();
            assertThat(RingPositions.split(head, released, capacity, split)).isTrue();
            sendRing.buffer().setMemory(split.firstOffset(), split.firstLength(), (byte) 0);
            sendRing.buffer().setMemory(split.secondOffset(), split.secondLength(), (byte) 0);
            sendRing.buffer().putLongRelease(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET, released);
        }

        void step(final Step step) {
            switch (step.action()) {
                case CLAIM_COMMIT -> {
                    final Claim claim = claim(step.size());
                    if (claim != null) {
                        commit(claim);
                    }
                }
                case CLAIM_ABORT -> {
                    final Claim claim = claim(step.size());
                    if (claim != null) {
                        abort(claim);
                    }
                }
                case CLAIM_HOLD -> claim(step.size());
                case COMMIT_HELD -> commitOldestHeld();
                case SCAN -> scan();
                case POST -> post();
                case DELIVER -> deliver();
                case CONSUME -> consume(1 + step.size() % 4);
                case CREDIT -> credit();
                case RELEASE -> release();
                case PUMP -> pump(step.size());
            }
            assertThat(window.invariantsHold()).as("%s", window).isTrue();
        }

        /** One turn of the driver and the receiver, consuming at most a few messages. */
        void pump(final int size) {
            scan();
            post();
            deliver();
            consume(1 + size % 4);
            credit();
            release();
        }

        void drain() {
            claims.forEach(claim -> {
                if (!claim.committed && !claim.aborted) {
                    commit(claim);
                }
            });
            for (int round = 0; round < 4; round++) {
                scan();
                post();
                deliver();
                consume(Integer.MAX_VALUE);
                credit();
                release();
            }
            assertThat(window.committed()).isEqualTo(sendRing.producerPosition());
            assertThat(consumed).isEqualTo(window.committed());
        }

        @Override
        public void close() {
            senderMemory.close();
            receiverMemory.close();
        }
    }

    @Property(tries = 300)
    void everyCommittedMessageArrivesOnceInOrderAndBatchedCreditNeverStallsTheSender(
        @ForAll("capacities") final int capacity, @ForAll("steps") final List<Step> steps) {
        for (final int divisor : new int[] {2, 4}) {
            try (Mirror mirror = new Mirror(capacity, divisor)) {
                steps.forEach(mirror::step);
                mirror.drain();

                assertThat(mirror.delivered).containsExactlyElementsOf(
                    mirror.claims.stream().filter(claim -> !claim.aborted).map(claim -> claim.seq).toList());
                assertThat((long) mirror.creditMessages * mirror.threshold).isLessThanOrEqualTo(mirror.lastReturned);

                // liveness: with credit held back by batching, the largest message still fits (a claim at the ring's
                // end may first pad the rest of the ring and fail once)
                final ManyToOneRingBuffer ring = mirror.sendRing;
                int index = ring.tryClaim(MSG_TYPE, ring.maxMsgLength());
                if (index == RingBuffer.INSUFFICIENT_CAPACITY) {
                    index = ring.tryClaim(MSG_TYPE, ring.maxMsgLength());
                }
                assertThat(index).as("claim of %d bytes with %s", ring.maxMsgLength(), mirror.window).isPositive();
            }
        }
    }
}
