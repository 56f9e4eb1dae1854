package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class FragmentationTest {

    private static final ProtocolOptions OPTIONS = new ProtocolOptions(2, 8192, 64 * 1024, Duration.ofSeconds(1),
        Duration.ofSeconds(5));

    @Property(tries = 25)
    void messagesOfAnySizeUpToTheMaximumArriveWholeAndInOrder(
        @ForAll @Size(min = 1, max = 30) final List<@IntRange(min = 0, max = 64 * 1024) Integer> lengths) {
        try (ConnectionPair pair = ConnectionPair.open(OPTIONS)) {
            final ProtocolStream out = pair.client.stream(1);
            final MessageFragmenter fragmenter = new MessageFragmenter(out);
            final List<byte[]> received = new ArrayList<>();
            final MessageAssembler assembler = new MessageAssembler(OPTIONS.maxMessageLength(),
                (buffer, index, length) -> {
                    final byte[] copy = new byte[length];
                    buffer.getBytes(index, copy);
                    received.add(copy);
                });
            int next = 0;
            int guard = 0;
            while (received.size() < lengths.size()) {
                assertThat(++guard).as("no progress").isLessThan(1_000_000);
                if (!fragmenter.isSending() && next < lengths.size()) {
                    fragmenter.begin(new UnsafeBuffer(message(next, lengths.get(next))), 0, lengths.get(next));
                    next++;
                }
                if (fragmenter.isSending()) {
                    fragmenter.send();
                }
                pair.pump();
                // consume a frame at a time so that back-pressure strikes in the middle of messages
                pair.server.stream(1).poll(assembler);
                assertThat(assembler.error()).isNull();
                assertThat(pair.server.error()).isNull();
            }
            for (int i = 0; i < lengths.size(); i++) {
                assertThat(received.get(i)).as("message %d", i).isEqualTo(message(i, lengths.get(i)));
            }
        }
    }

    @Test
    void fragmentsOutOfOrderAndOversizedMessagesAreProtocolErrors() {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);
        final MessageAssembler.MessageHandler ignore = (buffer, index, length) -> { };

        final MessageAssembler middleFirst = new MessageAssembler(1024, ignore);
        middleFirst.onFrame(frame, 0, 16, FrameHeaderFlyweight.DATA, (byte) 0);
        assertThat(middleFirst.error()).contains("outside a message");

        final MessageAssembler twoBeginnings = new MessageAssembler(1024, ignore);
        twoBeginnings.onFrame(frame, 0, 16, FrameHeaderFlyweight.DATA, MessageFragmenter.FIRST);
        twoBeginnings.onFrame(frame, 0, 16, FrameHeaderFlyweight.DATA, MessageFragmenter.FIRST);
        assertThat(twoBeginnings.error()).contains("began before the previous one ended");

        final MessageAssembler tooLong = new MessageAssembler(1024, ignore);
        tooLong.onFrame(frame, 0, 64, FrameHeaderFlyweight.DATA, MessageFragmenter.FIRST);
        for (int i = 0; i < 20 && tooLong.error() == null; i++) {
            tooLong.onFrame(frame, 0, 64, FrameHeaderFlyweight.DATA, (byte) 0);
        }
        assertThat(tooLong.error()).contains("past the maximum of 1024 bytes");
    }

    /**
     * One connection takes at most its share of the runtime's budget (a quarter, at least one message of the maximum
     * length): a peer that begins large messages on every stream of one connection is refused there, saying so, and
     * the rest of the budget stays for the other connections.
     */
    @Test
    void oneConnectionHoldsAtMostAQuarterOfTheRuntimesBudget() {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[8192]);
        final MessageAssembler.MessageHandler ignore = (buffer, index, length) -> { };
        final ReassemblyBudget runtime = new ReassemblyBudget(256 * 1024);
        final ReassemblyBudget hostile = runtime.share(16 * 1024);
        final ReassemblyBudget other = runtime.share(16 * 1024);
        assertThat(hostile.limit()).isEqualTo(64 * 1024);
        assertThat(runtime.share(1 << 20).limit()).as("one message of the maximum length, within the budget")
            .isEqualTo(256 * 1024);

        final java.util.List<MessageAssembler> streams = new java.util.ArrayList<>();
        String refused = null;
        for (int stream = 0; stream < 8 && refused == null; stream++) { // 16 KiB begun on each stream
            final MessageAssembler assembler = new MessageAssembler(1 << 20, hostile, ignore);
            streams.add(assembler);
            assembler.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, MessageFragmenter.FIRST);
            assembler.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, (byte) 0);
            refused = assembler.error();
        }
        assertThat(refused).contains("would pass the 65536 bytes of direct memory one connection may hold")
            .contains("a quarter of the 262144");
        assertThat(hostile.used()).isEqualTo(64 * 1024);
        assertThat(runtime.used()).as("what the share took, the runtime's budget counts").isEqualTo(64 * 1024);

        final MessageAssembler honest = new MessageAssembler(1 << 20, other, ignore);
        honest.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, MessageFragmenter.FIRST);
        honest.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, (byte) 0);
        assertThat(honest.error()).as("another connection still reassembles").isNull();

        streams.forEach(MessageAssembler::release);
        honest.release();
        assertThat(runtime.used()).isZero();
        assertThat(hostile.used()).isZero();
    }

    @Test
    void reassemblyTakesFromTheRuntimesBudgetAndAStreamThatWouldPassItIsRefusedSayingSo() {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[8192]);
        final java.util.List<Integer> whole = new java.util.ArrayList<>();
        final MessageAssembler.MessageHandler collect = (buffer, index, length) -> whole.add(length);
        final ReassemblyBudget budget = new ReassemblyBudget(48 * 1024);
        final MessageAssembler first = new MessageAssembler(1 << 20, budget, collect);
        final MessageAssembler second = new MessageAssembler(1 << 20, budget, collect);

        // the first stream begins a message and holds 32 KiB of the 48 KiB (buffers grow in powers of two)
        first.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, MessageFragmenter.FIRST);
        first.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, (byte) 0);
        first.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, (byte) 0);
        assertThat(first.error()).isNull();
        assertThat(budget.used()).isEqualTo(32 * 1024);

        // the second would need another 32 KiB: refused, naming the budget
        second.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, MessageFragmenter.FIRST);
        second.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, (byte) 0);
        assertThat(second.error()).isNull();
        second.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, (byte) 0);
        assertThat(second.error()).contains("would pass the 49152 bytes of direct memory")
            .contains("-XX:MaxDirectMemorySize");
        assertThat(budget.used()).as("a refused growth takes nothing").isEqualTo(48 * 1024);
        assertThat(second.isProtocolError()).as("a refusal of this side, not the peer's fault").isFalse();

        // the first finishes its message, and its stream ends: everything goes back
        first.onFrame(frame, 0, 8192, FrameHeaderFlyweight.DATA, MessageFragmenter.LAST);
        assertThat(whole).containsExactly(4 * 8192);
        first.release();
        second.release();
        assertThat(budget.used()).isZero();
        first.release();
        assertThat(budget.used()).as("release is idempotent").isZero();
    }

    private static byte[] message(final int sequence, final int length) {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (sequence * 131 + i * 7);
        }
        return bytes;
    }
}
