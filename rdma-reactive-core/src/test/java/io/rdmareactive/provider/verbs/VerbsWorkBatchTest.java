package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The send and receive batches without a device: what they write into the work requests' native memory (at the
 * offsets {@code VerbsLayoutTest} checks against the headers), how a post is bounded by a request with too many
 * entries and by the queue's room, and what misuse says. The posts themselves run in the verbs tests on an RDMA
 * device.
 */
class VerbsWorkBatchTest {

    private static final int CAPACITY = 3;
    private static final int MAX_SGE = 2;

    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    private MemorySegment wrs(final StructLayout layout) {
        return arena.allocate(CAPACITY * layout.byteSize(), 64);
    }

    private MemorySegment sges() {
        return arena.allocate(CAPACITY * MAX_SGE * VerbsLayouts.IBV_SGE.byteSize(), 64);
    }

    @Test
    void aSendRequestIsWrittenInPlaceAndLinkedAtPostTime() {
        final MemorySegment wrs = wrs(VerbsLayouts.IBV_SEND_WR);
        final MemorySegment sges = sges();
        final VerbsSendRequest batch = new VerbsSendRequest(null, wrs, sges, CAPACITY, MAX_SGE);
        batch.add(11, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, SendFlags.SIGNALED).sge(0x1000, 64, 7).sge(0x2000, 32, 8)
            .remote(0x9000, 99).immediate(0x01020304);
        batch.add(12, WorkRequestOpcode.SEND, SendFlags.INLINE);
        final long second = VerbsLayouts.IBV_SEND_WR.byteSize();

        assertThat(batch.count()).isEqualTo(2);
        assertThat(batch.capacity()).isEqualTo(CAPACITY);
        assertThat(batch.userWrId(0)).isEqualTo(11);
        assertThat(batch.isInline(0)).isFalse();
        assertThat(batch.isInline(1)).isTrue();
        assertThat(batch.sgeCount(0)).isEqualTo(2);
        assertThat(batch.sgeLkey(0, 1)).isEqualTo(8);
        assertThat(wrs.get(JAVA_LONG, VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "sg_list")))
            .isEqualTo(sges.address());
        assertThat(wrs.get(JAVA_INT, VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "num_sge"))).isEqualTo(2);
        assertThat(wrs.get(JAVA_INT, VerbsLayouts.SEND_WR_OPCODE)).isEqualTo(WorkRequestOpcode.RDMA_WRITE_WITH_IMM);
        assertThat(wrs.get(JAVA_INT, VerbsLayouts.SEND_WR_FLAGS)).isEqualTo(SendFlags.SIGNALED);
        assertThat(wrs.get(JAVA_LONG, VerbsLayouts.SEND_WR_REMOTE_ADDR)).isEqualTo(0x9000);
        assertThat(wrs.get(JAVA_INT, VerbsLayouts.SEND_WR_RKEY)).isEqualTo(99);
        assertThat(wrs.get(VerbsLayouts.BE_INT, VerbsLayouts.SEND_WR_IMM)).isEqualTo(0x01020304);
        assertThat(wrs.get(JAVA_LONG, second + VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "sg_list")))
            .isEqualTo(sges.address() + MAX_SGE * VerbsLayouts.IBV_SGE.byteSize());
        assertThat(wrs.get(JAVA_INT, second + VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "num_sge"))).isZero();

        batch.link(0, 501, false);
        batch.link(1, 502, true);
        assertThat(wrs.get(JAVA_LONG, VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "wr_id"))).isEqualTo(501);
        assertThat(wrs.get(JAVA_LONG, VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "next")))
            .isEqualTo(wrs.address() + second);
        assertThat(wrs.get(JAVA_LONG, second + VerbsLayouts.offset(VerbsLayouts.IBV_SEND_WR, "next"))).isZero();
        assertThat(batch.indexOf(wrs.address() + second)).isEqualTo(1);
        assertThat(batch.first()).isSameAs(wrs);
    }

    @Test
    void anAtomicKeepsItsRkeyInTheAtomicMemberOfTheUnion() {
        final MemorySegment wrs = wrs(VerbsLayouts.IBV_SEND_WR);
        final VerbsSendRequest batch = new VerbsSendRequest(null, wrs, sges(), CAPACITY, MAX_SGE);
        batch.add(1, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, 0).remote(0x8000, 77).atomic(5, 6);
        assertThat(wrs.get(JAVA_INT, VerbsLayouts.SEND_WR_ATOMIC_RKEY)).isEqualTo(77);
        assertThat(wrs.get(JAVA_LONG, VerbsLayouts.SEND_WR_ATOMIC_COMPARE_ADD)).isEqualTo(5);
        assertThat(wrs.get(JAVA_LONG, VerbsLayouts.SEND_WR_ATOMIC_SWAP)).isEqualTo(6);
    }

    @Test
    void aReceiveWithoutEntriesIsPostedAsSuch() {
        final MemorySegment wrs = wrs(VerbsLayouts.IBV_RECV_WR);
        final VerbsReceiveRequest batch = new VerbsReceiveRequest(null, wrs, sges(), CAPACITY, MAX_SGE);
        batch.add(21).sge(0x3000, 128, 9).add(22);
        assertThat(batch.count()).isEqualTo(2);
        assertThat(batch.sgeCount(0)).isEqualTo(1);
        assertThat(batch.sgeCount(1)).isZero();
        assertThat(wrs.get(JAVA_INT, VerbsLayouts.offset(VerbsLayouts.IBV_RECV_WR, "num_sge"))).isEqualTo(1);
        assertThat(wrs.get(JAVA_INT, VerbsLayouts.IBV_RECV_WR.byteSize()
            + VerbsLayouts.offset(VerbsLayouts.IBV_RECV_WR, "num_sge"))).isZero();
        assertThat(batch.userWrId(1)).isEqualTo(22);
    }

    @Test
    void aPostStopsBeforeARequestWithTooManyEntriesAndAtTheQueuesRoom() {
        final VerbsReceiveRequest batch = new VerbsReceiveRequest(null, wrs(VerbsLayouts.IBV_RECV_WR), sges(),
            CAPACITY, MAX_SGE);
        batch.add(1).add(2).sge(1, 1, 1).sge(2, 2, 2).sge(3, 3, 3).add(3);
        assertThat(batch.sgeCount(1)).isEqualTo(MAX_SGE);
        assertThat(batch.postable(10)).isEqualTo(1);
        assertThat(batch.posted(1)).isEqualTo(PostStatus.INVALID);
        assertThat(batch.failedIndex()).isEqualTo(1);

        batch.clear().add(1).add(2).add(3);
        assertThat(batch.postable(2)).isEqualTo(2);
        assertThat(batch.posted(2)).isEqualTo(PostStatus.QUEUE_FULL);
        assertThat(batch.failedIndex()).isEqualTo(2);
        assertThat(batch.postable(-1)).isZero();
        assertThat(batch.posted(0)).isEqualTo(PostStatus.QUEUE_FULL);
        assertThat(batch.failedIndex()).isZero();

        assertThat(batch.postable(3)).isEqualTo(3);
        assertThat(batch.posted(3)).isEqualTo(PostStatus.OK);
        assertThat(batch.failedIndex()).isEqualTo(-1);
    }

    @Test
    void misuseSaysWhatWasWrong() {
        final VerbsSendRequest send = new VerbsSendRequest(null, wrs(VerbsLayouts.IBV_SEND_WR), sges(), 1, MAX_SGE);
        assertThatThrownBy(() -> send.sge(1, 1, 1)).isInstanceOf(IllegalStateException.class)
            .hasMessage("add a request to the batch first");
        send.add(1, WorkRequestOpcode.SEND, 0);
        assertThatThrownBy(() -> send.add(2, WorkRequestOpcode.SEND, 0)).isInstanceOf(IllegalStateException.class)
            .hasMessage("the send batch is full: it holds 1 requests");
        final VerbsReceiveRequest receive = new VerbsReceiveRequest(null, wrs(VerbsLayouts.IBV_RECV_WR), sges(), 1,
            MAX_SGE);
        assertThatThrownBy(() -> receive.sge(1, 1, 1)).isInstanceOf(IllegalStateException.class)
            .hasMessage("add a receive to the batch first");
        receive.add(1);
        assertThatThrownBy(() -> receive.add(2)).isInstanceOf(IllegalStateException.class)
            .hasMessage("the receive batch is full: it holds 1 receives");
    }
}
