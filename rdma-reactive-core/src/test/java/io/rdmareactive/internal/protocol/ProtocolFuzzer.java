package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.BYTE_ORDER;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.HEADER_LENGTH;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Fuzzes, in process, the code that reads what a peer writes: a stream's receive ring (frames checked on arrival,
 * read again by the consumer, rewritten by the peer after their check), the credit word of a send ring, and the
 * handshake. These are the same classes, fed the same bytes, that a connection's driver runs on the peer's RDMA
 * writes; only the transport is left out, so a million cases take seconds (the end-to-end half is
 * {@code RoguePeerFuzzTest}).
 *
 * <p>Each case is generated from {@code seed + case number}: honest traffic as a sender writes it (every frame type
 * for the ring's stream, padding at the ring's end, positions wrapping many times), then, in most cases, one
 * mutation: a byte flipped, a length, type, flag, stream id, use or demand set to a boundary value, the advance
 * wrong, the whole batch replaced by garbage, a checked frame rewritten before it is read, a credit word moved
 * backwards, past what was sent, misaligned or torn, a handshake with absurd values. A crash is any exception, a
 * frame handed to the consumer outside the ring, a control frame handed on that fails its check, or honest traffic
 * refused. Zero crashes is the pass mark.
 */
final class ProtocolFuzzer {

    /** What a run found. */
    record Result(long cases, long accepted, long rejected, long crashes, String firstCrash) {
        @Override
        public String toString() {
            return "fuzz: cases=" + cases + " accepted=" + accepted + " rejected=" + rejected + " crashes=" + crashes
                + (firstCrash == null ? "" : " first=" + firstCrash);
        }
    }

    private static final int[] BOUNDARY_INTS = {0, 1, 7, 8, 9, 15, 16, 24, 4088, 4096, 4104, 8192, 65536,
        Integer.MAX_VALUE, Integer.MAX_VALUE - 7, Integer.MIN_VALUE, -1, -8, -4096};
    private static final long[] BOUNDARY_LONGS = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 48, 1L << 62,
        Integer.MAX_VALUE, 8, 4096};

    private final UnsafeBuffer[] rings = {new UnsafeBuffer(new byte[4096]), new UnsafeBuffer(new byte[8192])};
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[2048]);
    private final UnsafeBuffer creditLine = new UnsafeBuffer(new byte[64]);
    private final UnsafeBuffer sendRingMemory = new UnsafeBuffer(new byte[4096]);
    private final UnsafeBuffer handshake = new UnsafeBuffer(new byte[64]);
    private final UnsafeBuffer controlCopy = new UnsafeBuffer(new byte[RequestNFlyweight.LENGTH]);
    private final ArrayDeque<long[]> expected = new ArrayDeque<>();
    /** False once a mutation made what arrives differ from what was planned: then only bounds are checked. */
    private boolean tracking;
    private final RequestNFlyweight requestN = new RequestNFlyweight();
    private final StreamControlFlyweight control = new StreamControlFlyweight();
    private final KeepaliveFlyweight keepalive = new KeepaliveFlyweight();
    private final OpenFrameFlyweight open = new OpenFrameFlyweight();
    private final ErrorFrameFlyweight errorFrame = new ErrorFrameFlyweight();

    private long accepted;
    private long rejected;
    private long crashes;
    private String firstCrash;

    /** Runs {@code cases} cases from {@code seed} on. */
    Result run(final long seed, final long cases) {
        for (long c = 0; c < cases; c++) {
            final long caseSeed = seed + c;
            try {
                final SplittableRandom random = new SplittableRandom(caseSeed);
                switch (random.nextInt(10)) {
                    case 0 -> creditCase(random);
                    case 1 -> handshakeCase(random);
                    default -> ringCase(random);
                }
            } catch (final Throwable crash) {
                crash("case seed " + caseSeed + ": " + crash);
            }
        }
        return new Result(cases, accepted, rejected, crashes, firstCrash);
    }

    private void crash(final String what) {
        crashes++;
        if (firstCrash == null) {
            firstCrash = what;
        }
    }

    // ------------------------------------------------------------------------------------------- receive rings

    private void ringCase(final SplittableRandom random) {
        final UnsafeBuffer ring = rings[random.nextInt(rings.length)];
        ring.setMemory(0, ring.capacity(), (byte) 0);
        final int capacity = ring.capacity();
        final int maxStreams = 2 + random.nextInt(15);
        final int streamId = random.nextInt(4) == 0 ? ProtocolStream.CONTROL_STREAM : 1 + random.nextInt(maxStreams - 1);
        final StreamReceiveRing receiver = new StreamReceiveRing(ring, streamId, maxStreams);
        final boolean hostile = random.nextInt(8) != 0; // one case in eight is honest throughout
        final int mutateAtStep = random.nextInt(12);
        expected.clear();
        tracking = true;
        long written = 0;
        long credit = 0; // what the driver returned to the sender: the sender may write up to credit + capacity
        final int steps = 1 + random.nextInt(12);
        for (int step = 0; step < steps; step++) {
            // honest batch: as many frames as fit, padding at the ring's end
            final long room = capacity - (written - credit);
            final long start = written;
            final int frames = 1 + random.nextInt(6);
            for (int f = 0; f < frames; f++) {
                final int length = writeFrame(random, streamId, maxStreams, capacity);
                final int aligned = FrameHeaderFlyweight.alignedLength(length);
                final int index = (int) (written & (capacity - 1));
                final int pad = aligned > capacity - index ? capacity - index : 0;
                if (written - start + pad + aligned > room) {
                    break;
                }
                if (pad > 0) {
                    FrameHeaderFlyweight.write(ring, index, pad, FrameHeaderFlyweight.PAD, 0);
                    written += pad;
                }
                ring.putBytes((int) (written & (capacity - 1)), scratch, 0, aligned);
                if (tracking) {
                    expected.add(new long[] {scratch.getShort(FrameHeaderFlyweight.TYPE_OFFSET, BYTE_ORDER), length});
                }
                written += aligned;
            }
            int advance = (int) (written - start);
            boolean mutated = false;
            if (hostile && step == mutateAtStep % steps) {
                mutated = true;
                advance = mutate(random, ring, start, written, advance, capacity);
            }
            if (advance == 0 && !mutated) {
                continue; // no room: the honest sender waits for credit
            }
            final int code = receiver.onAdvance(advance);
            if (code != ProtocolError.NONE) {
                if (!mutated) {
                    crash("honest traffic refused: " + ProtocolError.describe(code, receiver.frameCheck()));
                }
                rejected++;
                return; // the connection ends here
            }
            if (mutated) {
                expected.clear(); // what arrives no longer matches what was planned: check bounds only
                tracking = false;
                written = receiver.receivedPosition();
            }
            final int reads = random.nextInt(8);
            for (int r = 0; r < reads; r++) {
                if (hostile && random.nextInt(16) == 0) {
                    rewriteUnread(random, ring, receiver, written);
                    expected.clear();
                    tracking = false;
                }
                if (!read(receiver, ring, streamId, maxStreams, capacity)) {
                    break;
                }
            }
            if (receiver.isCorrupted()) {
                rejected++;
                return;
            }
            final long returned = receiver.creditToReturn();
            if (returned >= 0) {
                credit = returned;
            }
        }
        accepted++;
    }

    /** Hands one frame to a checking consumer; false if there was none. */
    private boolean read(final StreamReceiveRing receiver, final UnsafeBuffer ring, final int streamId,
                         final int maxStreams, final int capacity) {
        return receiver.poll((buffer, index, length, type, flags) -> {
            if (buffer != ring || index < HEADER_LENGTH || length < 0 || (long) index + length > capacity) {
                crash("frame handed on outside the ring: index " + index + " length " + length);
                return;
            }
            if (type != FrameHeaderFlyweight.DATA) {
                // the driver's second check of a control frame, on a copy, as ProtocolConnection does it
                final int frameLength = length + HEADER_LENGTH;
                controlCopy.setMemory(0, controlCopy.capacity(), (byte) 0);
                controlCopy.putBytes(0, buffer, index - HEADER_LENGTH, Math.min(frameLength, controlCopy.capacity()));
                StreamReceiveRing.checkBody(controlCopy, 0, frameLength, type, streamId, maxStreams);
            }
            final long[] planned = expected.poll();
            if (tracking && planned == null) {
                crash("a frame of type " + type + " was handed on that was never written");
            } else if (planned != null && (planned[0] != type || planned[1] != length + HEADER_LENGTH)) {
                crash("honest frame read back as type " + type + " length " + length + ", written as type "
                    + planned[0] + " length " + planned[1]);
            }
        });
    }

    /** Writes into {@link #scratch} one well-formed frame that may travel on {@code streamId}; returns its length. */
    private int writeFrame(final SplittableRandom random, final int streamId, final int maxStreams,
                           final int capacity) {
        scratch.setMemory(0, 512, (byte) 0);
        if (streamId == ProtocolStream.CONTROL_STREAM) {
            final int target = 1 + random.nextInt(maxStreams - 1);
            return switch (random.nextInt(3)) {
                case 0 -> {
                    requestN.wrap(scratch, 0).write(target, random.nextInt(1000), 1 + random.nextLong(Long.MAX_VALUE));
                    yield RequestNFlyweight.LENGTH;
                }
                case 1 -> {
                    control.wrap(scratch, 0).write(FrameHeaderFlyweight.CANCEL, target, random.nextInt(1000));
                    yield StreamControlFlyweight.LENGTH;
                }
                default -> {
                    keepalive.wrap(scratch, 0).write(random.nextLong(), random.nextLong(1L << 40));
                    yield KeepaliveFlyweight.LENGTH;
                }
            };
        }
        return switch (random.nextInt(6)) {
            case 0 -> {
                control.wrap(scratch, 0).write(FrameHeaderFlyweight.COMPLETE, streamId, random.nextInt(1000));
                yield StreamControlFlyweight.LENGTH;
            }
            case 1 -> {
                final String message = "x".repeat(random.nextInt(60));
                errorFrame.wrap(scratch, 0).write(streamId, random.nextInt(), message);
                yield errorFrame.frameLength();
            }
            case 2 -> {
                open.wrap(scratch, 0).write(streamId, OpenFrameFlyweight.FIRE_AND_FORGET + random.nextInt(4),
                    random.nextInt(1000), random.nextLong());
                yield OpenFrameFlyweight.LENGTH;
            }
            default -> {
                final int length = HEADER_LENGTH + random.nextInt(Math.min(400, capacity / 8));
                final int[] flags = {FrameHeaderFlyweight.WHOLE, FrameHeaderFlyweight.FIRST, 0,
                    FrameHeaderFlyweight.LAST};
                FrameHeaderFlyweight.write(scratch, 0, length, FrameHeaderFlyweight.DATA, flags[random.nextInt(4)]);
                for (int i = HEADER_LENGTH; i < length; i++) {
                    scratch.putByte(i, (byte) random.nextInt());
                }
                yield length;
            }
        };
    }

    /** One hostile change to the batch just written at positions {@code [start, end)}; returns the advance to claim. */
    private int mutate(final SplittableRandom random, final UnsafeBuffer ring, final long start, final long end,
                       final int advance, final int capacity) {
        final int mask = capacity - 1;
        final int span = (int) (end - start);
        final int at = (int) ((start + (span == 0 ? 0 : random.nextInt(span))) & mask) & ~7;
        switch (random.nextInt(9)) {
            case 0 -> ring.putByte((int) ((start + (span == 0 ? 0 : random.nextInt(span))) & mask),
                (byte) random.nextInt());
            case 1 -> ring.putInt(at, BOUNDARY_INTS[random.nextInt(BOUNDARY_INTS.length)], BYTE_ORDER);
            case 2 -> ring.putShort(at + FrameHeaderFlyweight.TYPE_OFFSET, (short) (random.nextInt(12) - 2),
                BYTE_ORDER);
            case 3 -> ring.putByte(at + FrameHeaderFlyweight.FLAGS_OFFSET, (byte) random.nextInt());
            case 4 -> { // a body field: stream id, use, demand, kind, message length
                final int field = at + HEADER_LENGTH + 4 * random.nextInt(4);
                if (field + 8 <= capacity) {
                    if (random.nextBoolean()) {
                        ring.putInt(field, BOUNDARY_INTS[random.nextInt(BOUNDARY_INTS.length)], BYTE_ORDER);
                    } else {
                        ring.putLong(field, BOUNDARY_LONGS[random.nextInt(BOUNDARY_LONGS.length)], BYTE_ORDER);
                    }
                }
            }
            case 5 -> { // garbage over the whole batch
                for (long p = start; p < end; p++) {
                    ring.putByte((int) (p & mask), (byte) random.nextInt());
                }
            }
            case 6 -> {
                return BOUNDARY_INTS[random.nextInt(BOUNDARY_INTS.length)]; // an impossible advance
            }
            case 7 -> {
                return advance + 8 * (1 + random.nextInt(capacity / 8)); // claims bytes never written, maybe beyond
            }
            default -> {
                return advance - 8 * random.nextInt(1 + span / 8); // claims less: a frame cut short, or nothing
            }
        }
        return advance;
    }

    /** The peer rewrites a byte it wrote and the driver already checked, before the consumer reads it. */
    private static void rewriteUnread(final SplittableRandom random, final UnsafeBuffer ring,
                                      final StreamReceiveRing receiver, final long written) {
        final long consumed = receiver.consumedPosition();
        if (written > consumed) {
            final long position = consumed + random.nextLong(written - consumed);
            ring.putByte((int) (position & (ring.capacity() - 1)), (byte) random.nextInt());
        }
    }

    // ------------------------------------------------------------------------------------------------- credit

    private void creditCase(final SplittableRandom random) {
        creditLine.setMemory(0, creditLine.capacity(), (byte) 0);
        final StreamSendRing sender = new StreamSendRing(sendRingMemory, creditLine);
        long credited = 0;
        final int rounds = 1 + random.nextInt(20);
        for (int round = 0; round < rounds; round++) {
            final int claimed = sender.claim(random.nextInt(300));
            if (claimed >= 0) {
                sender.commit(FrameHeaderFlyweight.DATA, (byte) FrameHeaderFlyweight.WHOLE);
            }
            final long sent = sender.producerPosition();
            sender.sentTo(sent);
            sender.completedTo(sent);
            final long value;
            final int expect;
            switch (random.nextInt(6)) {
                case 0 -> { // backwards
                    value = credited - 8 * (1 + random.nextInt(64));
                    // a negative word reads as torn (not yet written): the peer only withholds its own credit
                    expect = value < 0 ? ProtocolError.NONE : ProtocolError.CREDIT_BACKWARDS;
                }
                case 1 -> {
                    value = sent + 8 * (1 + random.nextInt(1 << 20));
                    expect = ProtocolError.CREDIT_BEYOND_SENT;
                }
                case 2 -> {
                    value = credited + 1 + 8L * random.nextInt((int) ((sent - credited) / 8 + 1));
                    expect = value > sent ? ProtocolError.CREDIT_BEYOND_SENT : ProtocolError.CREDIT_MISALIGNED;
                }
                case 3 -> { // torn: value and complement disagree; read as "not yet", never as a value
                    creditLine.putLong(0, random.nextLong(), BYTE_ORDER);
                    creditLine.putLong(8, random.nextLong(), BYTE_ORDER);
                    final int code = sender.refreshCredit();
                    if (code != ProtocolError.NONE && sender.creditedPosition() != credited) {
                        crash("a torn credit word moved the credit");
                    }
                    if (code != ProtocolError.NONE) {
                        rejected++;
                        return;
                    }
                    credited = sender.creditedPosition();
                    continue;
                }
                default -> {
                    value = credited + 8L * random.nextInt((int) ((sent - credited) / 8 + 1));
                    expect = ProtocolError.NONE;
                }
            }
            CheckedWord.write(creditLine, 0, value);
            final int code = sender.refreshCredit();
            if (expect >= 0 && code != expect) {
                crash("credit " + value + " after " + credited + " of " + sent + " sent gave " + code + ", not "
                    + expect);
                return;
            }
            if (code != ProtocolError.NONE) {
                rejected++;
                return;
            }
            credited = sender.creditedPosition();
            if (credited > sent || credited < 0) {
                crash("credit " + credited + " accepted beyond " + sent + " sent");
            }
            // the sender frees what was credited: consume the ring in step so that it never fills
            sender.claim(0);
            sender.abort();
        }
        accepted++;
    }

    // ---------------------------------------------------------------------------------------------- handshake

    private void handshakeCase(final SplittableRandom random) {
        handshake.setMemory(0, handshake.capacity(), (byte) 0);
        new HandshakeFlyweight().wrap(handshake, 0).write(2 + random.nextInt(15), 4096 << random.nextInt(4),
            1024 << random.nextInt(10), random.nextInt(), random.nextLong(), 1L << (16 + random.nextInt(20)));
        final int length;
        switch (random.nextInt(4)) {
            case 0 -> {
                for (int i = 0; i < handshake.capacity(); i++) {
                    handshake.putByte(i, (byte) random.nextInt());
                }
                length = random.nextInt(handshake.capacity() + 1);
            }
            case 1 -> {
                handshake.putInt(4 * random.nextInt(HandshakeFlyweight.LENGTH / 4),
                    BOUNDARY_INTS[random.nextInt(BOUNDARY_INTS.length)], BYTE_ORDER);
                length = HandshakeFlyweight.LENGTH;
            }
            case 2 -> {
                handshake.putByte(random.nextInt(HandshakeFlyweight.LENGTH), (byte) random.nextInt());
                length = random.nextInt(HandshakeFlyweight.MAX_PRIVATE_DATA_LENGTH + 1);
            }
            default -> length = HandshakeFlyweight.LENGTH + random.nextInt(17);
        }
        final UnsafeBuffer view = new UnsafeBuffer(handshake, 0, length);
        final String problem = HandshakeFlyweight.validate(view, 0, length);
        if (problem == null) {
            final HandshakeFlyweight valid = new HandshakeFlyweight().wrap(view, 0);
            if (valid.maxStreams() < HandshakeFlyweight.MIN_STREAMS || valid.maxStreams() > HandshakeFlyweight.MAX_STREAMS
                || !HandshakeFlyweight.isValidRingCapacity(valid.ringCapacity())
                || valid.maxMessageLength() < HandshakeFlyweight.MIN_MESSAGE_LENGTH
                || valid.receiveRegionLength() < HandshakeFlyweight.requiredRegionLength(valid.maxStreams(),
                valid.ringCapacity())) {
                crash("an absurd handshake passed: " + valid.maxStreams() + " streams, ring " + valid.ringCapacity());
            }
            accepted++;
        } else {
            rejected++;
        }
    }

    /**
     * The nightly command's entry point: {@code ProtocolFuzzer [cases] [seed]}; prints the result; exits 1 on a
     * crash.
     */
    public static void main(final String[] args) {
        final long cases = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        final long seed = args.length > 1 ? Long.parseLong(args[1]) : System.nanoTime();
        final long start = System.nanoTime();
        final Result result = new ProtocolFuzzer().run(seed, cases);
        System.out.println(result + " seed=" + seed + " seconds=" + (System.nanoTime() - start) / 1_000_000_000);
        if (result.crashes() > 0) {
            System.exit(1);
        }
    }
}
