package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Map;

/**
 * The C structures of libibverbs, librdmacm and libc that the binding reads or writes, declared once, as x86-64 /
 * aarch64 LP64 Linux lays them out (rdma-core 44 and later), and the provider's endpoint format. Only the members the
 * binding uses are named; the rest is padding, so each layout has the C structure's full size. Members are named
 * after their C path ({@code wr.rdma.rkey}), which lets {@code VerbsLayoutTest} compile a C program that prints
 * {@code sizeof} and {@code offsetof} of each against the installed headers and compare.
 *
 * <p>Offsets are read from the layouts once, into the {@code long} constants the hot path uses, so a layout declared
 * wrongly is caught by that test rather than by a crash.
 */
final class VerbsLayouts {

    /** {@code __be32} members (immediate data) are big-endian. */
    static final ValueLayout.OfInt BE_INT = JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);

    /** {@code union ibv_gid}: a port's global identifier, 16 bytes. */
    static final MemoryLayout GID = MemoryLayout.sequenceLayout(16, JAVA_BYTE);

    /** {@code struct ibv_sge}: one gather/scatter entry. */
    static final StructLayout IBV_SGE = MemoryLayout.structLayout(
        JAVA_LONG.withName("addr"),
        JAVA_INT.withName("length"),
        JAVA_INT.withName("lkey"));

    /** {@code struct ibv_send_wr}, with the {@code wr.rdma} and {@code wr.atomic} members of its union. */
    static final StructLayout IBV_SEND_WR = MemoryLayout.structLayout(
        JAVA_LONG.withName("wr_id"),
        ADDRESS.withName("next"),
        ADDRESS.withName("sg_list"),
        JAVA_INT.withName("num_sge"),
        JAVA_INT.withName("opcode"),
        JAVA_INT.withName("send_flags"),
        BE_INT.withName("imm_data"),
        MemoryLayout.unionLayout(
            MemoryLayout.structLayout(
                JAVA_LONG.withName("remote_addr"),
                JAVA_INT.withName("rkey"),
                MemoryLayout.paddingLayout(4)).withName("rdma"),
            MemoryLayout.structLayout(
                JAVA_LONG.withName("remote_addr"),
                JAVA_LONG.withName("compare_add"),
                JAVA_LONG.withName("swap"),
                JAVA_INT.withName("rkey"),
                MemoryLayout.paddingLayout(4)).withName("atomic")).withName("wr"),
        MemoryLayout.paddingLayout(56));

    /** {@code struct ibv_recv_wr}. */
    static final StructLayout IBV_RECV_WR = MemoryLayout.structLayout(
        JAVA_LONG.withName("wr_id"),
        ADDRESS.withName("next"),
        ADDRESS.withName("sg_list"),
        JAVA_INT.withName("num_sge"),
        MemoryLayout.paddingLayout(4));

    /** {@code struct ibv_wc}: a work completion. */
    static final StructLayout IBV_WC = MemoryLayout.structLayout(
        JAVA_LONG.withName("wr_id"),
        JAVA_INT.withName("status"),
        JAVA_INT.withName("opcode"),
        JAVA_INT.withName("vendor_err"),
        JAVA_INT.withName("byte_len"),
        BE_INT.withName("imm_data"),
        JAVA_INT.withName("qp_num"),
        JAVA_INT.withName("src_qp"),
        JAVA_INT.withName("wc_flags"),
        MemoryLayout.paddingLayout(8));

    /** {@code struct ibv_qp_init_attr}, with its {@code struct ibv_qp_cap}. */
    static final StructLayout IBV_QP_INIT_ATTR = MemoryLayout.structLayout(
        ADDRESS.withName("qp_context"),
        ADDRESS.withName("send_cq"),
        ADDRESS.withName("recv_cq"),
        ADDRESS.withName("srq"),
        JAVA_INT.withName("cap.max_send_wr"),
        JAVA_INT.withName("cap.max_recv_wr"),
        JAVA_INT.withName("cap.max_send_sge"),
        JAVA_INT.withName("cap.max_recv_sge"),
        JAVA_INT.withName("cap.max_inline_data"),
        JAVA_INT.withName("qp_type"),
        JAVA_INT.withName("sq_sig_all"),
        MemoryLayout.paddingLayout(4));

    /** {@code struct ibv_context}: the device context; the data-path entry points live in its {@code ops}. */
    static final StructLayout IBV_CONTEXT = MemoryLayout.structLayout(
        ADDRESS.withName("device"),
        MemoryLayout.paddingLayout(88),
        ADDRESS.withName("ops.poll_cq"),
        ADDRESS.withName("ops.req_notify_cq"),
        MemoryLayout.paddingLayout(96),
        ADDRESS.withName("ops.post_send"),
        ADDRESS.withName("ops.post_recv"),
        MemoryLayout.paddingLayout(40),
        JAVA_INT.withName("cmd_fd"),
        JAVA_INT.withName("async_fd"),
        JAVA_INT.withName("num_comp_vectors"),
        MemoryLayout.paddingLayout(52));

    /** {@code struct ibv_device}. */
    static final StructLayout IBV_DEVICE = MemoryLayout.structLayout(
        MemoryLayout.paddingLayout(16),
        JAVA_INT.withName("node_type"),
        JAVA_INT.withName("transport_type"),
        MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("name"),
        MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("dev_name"),
        MemoryLayout.paddingLayout(512));

    /** {@code struct ibv_device_attr}: the limits the provider reports. */
    static final StructLayout IBV_DEVICE_ATTR = MemoryLayout.structLayout(
        MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("fw_ver"),
        JAVA_LONG.withName("node_guid"),
        MemoryLayout.paddingLayout(8),
        JAVA_LONG.withName("max_mr_size"),
        MemoryLayout.paddingLayout(8),
        JAVA_INT.withName("vendor_id"),
        JAVA_INT.withName("vendor_part_id"),
        JAVA_INT.withName("hw_ver"),
        JAVA_INT.withName("max_qp"),
        JAVA_INT.withName("max_qp_wr"),
        MemoryLayout.paddingLayout(4),
        JAVA_INT.withName("max_sge"),
        MemoryLayout.paddingLayout(4),
        JAVA_INT.withName("max_cq"),
        JAVA_INT.withName("max_cqe"),
        JAVA_INT.withName("max_mr"),
        MemoryLayout.paddingLayout(4),
        JAVA_INT.withName("max_qp_rd_atom"),
        MemoryLayout.paddingLayout(8),
        JAVA_INT.withName("max_qp_init_rd_atom"),
        MemoryLayout.paddingLayout(4),
        JAVA_INT.withName("atomic_cap"),
        MemoryLayout.paddingLayout(59),
        JAVA_BYTE.withName("phys_port_cnt"),
        MemoryLayout.paddingLayout(4));

    /** {@code struct ibv_port_attr} (52 bytes; the exported {@code ibv_query_port} fills the first 48). */
    static final StructLayout IBV_PORT_ATTR = MemoryLayout.structLayout(
        JAVA_INT.withName("state"),
        JAVA_INT.withName("max_mtu"),
        JAVA_INT.withName("active_mtu"),
        JAVA_INT.withName("gid_tbl_len"),
        MemoryLayout.paddingLayout(4),
        JAVA_INT.withName("max_msg_sz"),
        MemoryLayout.paddingLayout(10),
        JAVA_SHORT.withName("lid"),
        MemoryLayout.paddingLayout(7),
        JAVA_BYTE.withName("active_width"),
        JAVA_BYTE.withName("active_speed"),
        MemoryLayout.paddingLayout(1),
        JAVA_BYTE.withName("link_layer"),
        MemoryLayout.paddingLayout(5));

    /** {@code struct ibv_qp_attr}: only the state is set (to move a queue pair to the error state). */
    static final StructLayout IBV_QP_ATTR = MemoryLayout.structLayout(
        JAVA_INT.withName("qp_state"),
        MemoryLayout.paddingLayout(140));

    /** {@code struct ibv_mr}. */
    static final StructLayout IBV_MR = MemoryLayout.structLayout(
        ADDRESS.withName("context"),
        ADDRESS.withName("pd"),
        ADDRESS.withName("addr"),
        JAVA_LONG.withName("length"),
        JAVA_INT.withName("handle"),
        JAVA_INT.withName("lkey"),
        JAVA_INT.withName("rkey"),
        MemoryLayout.paddingLayout(4));

    /** {@code struct ibv_qp}. */
    static final StructLayout IBV_QP = MemoryLayout.structLayout(
        ADDRESS.withName("context"),
        MemoryLayout.paddingLayout(44),
        JAVA_INT.withName("qp_num"),
        JAVA_INT.withName("state"),
        MemoryLayout.paddingLayout(100));

    /** {@code struct ibv_cq}. */
    static final StructLayout IBV_CQ = MemoryLayout.structLayout(
        ADDRESS.withName("context"),
        MemoryLayout.paddingLayout(20),
        JAVA_INT.withName("cqe"),
        MemoryLayout.paddingLayout(96));

    /** {@code struct ibv_async_event}: the member of its union it concerns, and its type. */
    static final StructLayout IBV_ASYNC_EVENT = MemoryLayout.structLayout(
        ADDRESS.withName("element.qp"),
        JAVA_INT.withName("event_type"),
        MemoryLayout.paddingLayout(4));

    /** {@code struct rdma_cm_id}. */
    static final StructLayout RDMA_CM_ID = MemoryLayout.structLayout(
        ADDRESS.withName("verbs"),
        ADDRESS.withName("channel"),
        ADDRESS.withName("context"),
        ADDRESS.withName("qp"),
        MemoryLayout.sequenceLayout(128, JAVA_BYTE).withName("route.addr.src_storage"),
        MemoryLayout.sequenceLayout(128, JAVA_BYTE).withName("route.addr.dst_storage"),
        GID.withName("route.addr.addr.ibaddr.sgid"),
        GID.withName("route.addr.addr.ibaddr.dgid"),
        MemoryLayout.paddingLayout(24),
        JAVA_INT.withName("ps"),
        JAVA_BYTE.withName("port_num"),
        MemoryLayout.paddingLayout(67));

    /** {@code struct rdma_cm_event}, with the connection member of its {@code param} union. */
    static final StructLayout RDMA_CM_EVENT = MemoryLayout.structLayout(
        ADDRESS.withName("id"),
        ADDRESS.withName("listen_id"),
        JAVA_INT.withName("event"),
        JAVA_INT.withName("status"),
        ADDRESS.withName("param.conn.private_data"),
        JAVA_BYTE.withName("param.conn.private_data_len"),
        MemoryLayout.paddingLayout(7),
        JAVA_INT.withName("param.conn.qp_num"),
        MemoryLayout.paddingLayout(36));

    /** {@code struct rdma_conn_param}. */
    static final StructLayout RDMA_CONN_PARAM = MemoryLayout.structLayout(
        ADDRESS.withName("private_data"),
        JAVA_BYTE.withName("private_data_len"),
        JAVA_BYTE.withName("responder_resources"),
        JAVA_BYTE.withName("initiator_depth"),
        JAVA_BYTE.withName("flow_control"),
        JAVA_BYTE.withName("retry_count"),
        JAVA_BYTE.withName("rnr_retry_count"),
        JAVA_BYTE.withName("srq"),
        MemoryLayout.paddingLayout(1),
        JAVA_INT.withName("qp_num"),
        MemoryLayout.paddingLayout(4));

    /** {@code struct rdma_event_channel}. */
    static final StructLayout RDMA_EVENT_CHANNEL = MemoryLayout.structLayout(JAVA_INT.withName("fd"));

    /** {@code struct sockaddr}: what every socket address starts with, its family. */
    static final StructLayout SOCKADDR = MemoryLayout.structLayout(
        JAVA_SHORT.withName("sa_family"),
        MemoryLayout.sequenceLayout(14, JAVA_BYTE).withName("sa_data"));

    /** {@code struct sockaddr_in}: port and address in network byte order. */
    static final StructLayout SOCKADDR_IN = MemoryLayout.structLayout(
        JAVA_SHORT.withName("sin_family"),
        JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN).withName("sin_port"),
        MemoryLayout.sequenceLayout(4, JAVA_BYTE).withName("sin_addr"),
        MemoryLayout.paddingLayout(8));

    /** {@code struct ibv_comp_channel}: the file a completion queue's events arrive on. */
    static final StructLayout IBV_COMP_CHANNEL = MemoryLayout.structLayout(
        ADDRESS.withName("context"),
        JAVA_INT.withName("fd"),
        JAVA_INT.withName("refcnt"));

    /** {@code struct pollfd} of {@code poll(2)}. */
    static final StructLayout POLLFD = MemoryLayout.structLayout(
        JAVA_INT.withName("fd"),
        JAVA_SHORT.withName("events"),
        JAVA_SHORT.withName("revents"));

    /** {@code struct rlimit} of {@code getrlimit(2)}. */
    static final StructLayout RLIMIT = MemoryLayout.structLayout(
        JAVA_LONG.withName("rlim_cur"),
        JAVA_LONG.withName("rlim_max"));

    /**
     * A queue pair's endpoint ({@code QueuePair.localEndpoint()}): its port's GID, then its number, big-endian. This
     * provider's own format, not a C structure; its GID is the connection manager's ({@link #GID}).
     */
    static final StructLayout ENDPOINT = MemoryLayout.structLayout(
        GID.withName("gid"),
        BE_INT.withName("qp_num"));

    /** Every layout above that is a C structure, by its C name, for the layout test. */
    static final Map<String, StructLayout> BY_C_NAME = Map.ofEntries(
        Map.entry("ibv_sge", IBV_SGE),
        Map.entry("ibv_send_wr", IBV_SEND_WR),
        Map.entry("ibv_recv_wr", IBV_RECV_WR),
        Map.entry("ibv_wc", IBV_WC),
        Map.entry("ibv_qp_init_attr", IBV_QP_INIT_ATTR),
        Map.entry("ibv_context", IBV_CONTEXT),
        Map.entry("ibv_device", IBV_DEVICE),
        Map.entry("ibv_device_attr", IBV_DEVICE_ATTR),
        Map.entry("ibv_port_attr", IBV_PORT_ATTR),
        Map.entry("ibv_mr", IBV_MR),
        Map.entry("ibv_qp_attr", IBV_QP_ATTR),
        Map.entry("ibv_qp", IBV_QP),
        Map.entry("ibv_cq", IBV_CQ),
        Map.entry("ibv_async_event", IBV_ASYNC_EVENT),
        Map.entry("rdma_cm_id", RDMA_CM_ID),
        Map.entry("rdma_cm_event", RDMA_CM_EVENT),
        Map.entry("rdma_conn_param", RDMA_CONN_PARAM),
        Map.entry("rdma_event_channel", RDMA_EVENT_CHANNEL),
        Map.entry("sockaddr", SOCKADDR),
        Map.entry("sockaddr_in", SOCKADDR_IN),
        Map.entry("ibv_comp_channel", IBV_COMP_CHANNEL),
        Map.entry("pollfd", POLLFD),
        Map.entry("rlimit", RLIMIT));

    // offsets the binding uses, read once from the layouts
    static final long SGE_ADDR = offset(IBV_SGE, "addr");
    static final long SGE_LENGTH = offset(IBV_SGE, "length");
    static final long SGE_LKEY = offset(IBV_SGE, "lkey");

    static final long SEND_WR_OPCODE = offset(IBV_SEND_WR, "opcode");
    static final long SEND_WR_FLAGS = offset(IBV_SEND_WR, "send_flags");
    static final long SEND_WR_IMM = offset(IBV_SEND_WR, "imm_data");
    static final long SEND_WR_REMOTE_ADDR = offset(IBV_SEND_WR, "wr.rdma.remote_addr");
    static final long SEND_WR_RKEY = offset(IBV_SEND_WR, "wr.rdma.rkey");
    static final long SEND_WR_ATOMIC_COMPARE_ADD = offset(IBV_SEND_WR, "wr.atomic.compare_add");
    static final long SEND_WR_ATOMIC_SWAP = offset(IBV_SEND_WR, "wr.atomic.swap");
    static final long SEND_WR_ATOMIC_RKEY = offset(IBV_SEND_WR, "wr.atomic.rkey");
    /** {@code IBV_ATOMIC_NONE}: the device runs no atomics ({@code ibv_device_attr.atomic_cap}). */
    static final int ATOMIC_NONE = 0;

    static final long WC_WR_ID = offset(IBV_WC, "wr_id");
    static final long WC_STATUS = offset(IBV_WC, "status");
    static final long WC_OPCODE = offset(IBV_WC, "opcode");
    static final long WC_VENDOR_ERR = offset(IBV_WC, "vendor_err");
    static final long WC_BYTE_LEN = offset(IBV_WC, "byte_len");
    static final long WC_IMM = offset(IBV_WC, "imm_data");
    static final long WC_QP_NUM = offset(IBV_WC, "qp_num");
    static final long WC_FLAGS = offset(IBV_WC, "wc_flags");

    static final long CONTEXT_DEVICE = offset(IBV_CONTEXT, "device");
    static final long CONTEXT_POLL_CQ = offset(IBV_CONTEXT, "ops.poll_cq");
    static final long CONTEXT_REQ_NOTIFY_CQ = offset(IBV_CONTEXT, "ops.req_notify_cq");
    static final long CONTEXT_POST_SEND = offset(IBV_CONTEXT, "ops.post_send");
    static final long CONTEXT_POST_RECV = offset(IBV_CONTEXT, "ops.post_recv");
    static final long CONTEXT_ASYNC_FD = offset(IBV_CONTEXT, "async_fd");

    static final long MR_LKEY = offset(IBV_MR, "lkey");
    static final long MR_RKEY = offset(IBV_MR, "rkey");
    static final long QP_CONTEXT = offset(IBV_QP, "context");
    static final long QP_NUM = offset(IBV_QP, "qp_num");
    static final long CQ_CONTEXT = offset(IBV_CQ, "context");
    static final long CQ_CQE = offset(IBV_CQ, "cqe");
    static final long COMP_CHANNEL_FD = offset(IBV_COMP_CHANNEL, "fd");

    static final long CM_ID_VERBS = offset(RDMA_CM_ID, "verbs");
    static final long CM_ID_QP = offset(RDMA_CM_ID, "qp");
    static final long CM_ID_DST_ADDR = offset(RDMA_CM_ID, "route.addr.dst_storage");
    static final long CM_EVENT_ID = offset(RDMA_CM_EVENT, "id");
    static final long CM_EVENT_LISTEN_ID = offset(RDMA_CM_EVENT, "listen_id");
    static final long CM_EVENT_TYPE = offset(RDMA_CM_EVENT, "event");
    static final long CM_EVENT_STATUS = offset(RDMA_CM_EVENT, "status");
    static final long CM_EVENT_PRIVATE_DATA = offset(RDMA_CM_EVENT, "param.conn.private_data");
    static final long CM_EVENT_PRIVATE_DATA_LEN = offset(RDMA_CM_EVENT, "param.conn.private_data_len");
    /** The peer's queue-pair number, in a CONNECT_REQUEST (the requester's) or ESTABLISHED (the acceptor's). */
    static final long CM_EVENT_QP_NUM = offset(RDMA_CM_EVENT, "param.conn.qp_num");
    /** This side's GID of a connection's route (RoCE: from its IP address). */
    static final long CM_ID_SGID = offset(RDMA_CM_ID, "route.addr.addr.ibaddr.sgid");
    /** The peer's GID of a connection's route. */
    static final long CM_ID_DGID = offset(RDMA_CM_ID, "route.addr.addr.ibaddr.dgid");

    static final long QP_INIT_ATTR_SEND_CQ = offset(IBV_QP_INIT_ATTR, "send_cq");
    static final long QP_INIT_ATTR_RECV_CQ = offset(IBV_QP_INIT_ATTR, "recv_cq");
    static final long QP_INIT_ATTR_MAX_SEND_WR = offset(IBV_QP_INIT_ATTR, "cap.max_send_wr");
    static final long QP_INIT_ATTR_MAX_RECV_WR = offset(IBV_QP_INIT_ATTR, "cap.max_recv_wr");
    static final long QP_INIT_ATTR_MAX_SEND_SGE = offset(IBV_QP_INIT_ATTR, "cap.max_send_sge");
    static final long QP_INIT_ATTR_MAX_RECV_SGE = offset(IBV_QP_INIT_ATTR, "cap.max_recv_sge");
    static final long QP_INIT_ATTR_MAX_INLINE_DATA = offset(IBV_QP_INIT_ATTR, "cap.max_inline_data");
    static final long QP_INIT_ATTR_QP_TYPE = offset(IBV_QP_INIT_ATTR, "qp_type");
    static final long QP_INIT_ATTR_SQ_SIG_ALL = offset(IBV_QP_INIT_ATTR, "sq_sig_all");

    static final long CONN_PARAM_PRIVATE_DATA = offset(RDMA_CONN_PARAM, "private_data");
    static final long CONN_PARAM_PRIVATE_DATA_LEN = offset(RDMA_CONN_PARAM, "private_data_len");
    static final long CONN_PARAM_RESPONDER_RESOURCES = offset(RDMA_CONN_PARAM, "responder_resources");
    static final long CONN_PARAM_INITIATOR_DEPTH = offset(RDMA_CONN_PARAM, "initiator_depth");
    static final long CONN_PARAM_RETRY_COUNT = offset(RDMA_CONN_PARAM, "retry_count");
    static final long CONN_PARAM_RNR_RETRY_COUNT = offset(RDMA_CONN_PARAM, "rnr_retry_count");

    static final long EVENT_CHANNEL_FD = offset(RDMA_EVENT_CHANNEL, "fd");
    static final long RLIMIT_CUR = offset(RLIMIT, "rlim_cur");
    /** The length of a GID ({@link #CM_ID_SGID}, {@link #CM_ID_DGID}). */
    static final long GID_LENGTH = GID.byteSize();

    static final long ASYNC_EVENT_ELEMENT = offset(IBV_ASYNC_EVENT, "element.qp");
    static final long ASYNC_EVENT_TYPE = offset(IBV_ASYNC_EVENT, "event_type");

    static final long POLLFD_FD = offset(POLLFD, "fd");
    static final long POLLFD_EVENTS = offset(POLLFD, "events");
    static final long POLLFD_REVENTS = offset(POLLFD, "revents");

    static final long SOCKADDR_FAMILY = offset(SOCKADDR, "sa_family");
    static final long SOCKADDR_IN_FAMILY = offset(SOCKADDR_IN, "sin_family");
    static final long SOCKADDR_IN_PORT = offset(SOCKADDR_IN, "sin_port");
    static final long SOCKADDR_IN_ADDR = offset(SOCKADDR_IN, "sin_addr");
    /** The length of an IPv4 address ({@link #SOCKADDR_IN_ADDR}). */
    static final long SOCKADDR_IN_ADDR_LENGTH = SOCKADDR_IN.select(PathElement.groupElement("sin_addr")).byteSize();

    static final long DEVICE_ATTR_FW_VER = offset(IBV_DEVICE_ATTR, "fw_ver");
    /** The room of the firmware version, a NUL-terminated string ({@link #DEVICE_ATTR_FW_VER}). */
    static final long DEVICE_ATTR_FW_VER_LENGTH = IBV_DEVICE_ATTR.select(PathElement.groupElement("fw_ver")).byteSize();
    static final long DEVICE_ATTR_NODE_GUID = offset(IBV_DEVICE_ATTR, "node_guid");
    static final long DEVICE_ATTR_MAX_MR_SIZE = offset(IBV_DEVICE_ATTR, "max_mr_size");
    static final long DEVICE_ATTR_VENDOR_ID = offset(IBV_DEVICE_ATTR, "vendor_id");
    static final long DEVICE_ATTR_VENDOR_PART_ID = offset(IBV_DEVICE_ATTR, "vendor_part_id");
    static final long DEVICE_ATTR_MAX_QP = offset(IBV_DEVICE_ATTR, "max_qp");
    static final long DEVICE_ATTR_MAX_QP_WR = offset(IBV_DEVICE_ATTR, "max_qp_wr");
    static final long DEVICE_ATTR_MAX_SGE = offset(IBV_DEVICE_ATTR, "max_sge");
    static final long DEVICE_ATTR_MAX_CQ = offset(IBV_DEVICE_ATTR, "max_cq");
    static final long DEVICE_ATTR_MAX_CQE = offset(IBV_DEVICE_ATTR, "max_cqe");
    static final long DEVICE_ATTR_MAX_QP_RD_ATOM = offset(IBV_DEVICE_ATTR, "max_qp_rd_atom");
    static final long DEVICE_ATTR_MAX_QP_INIT_RD_ATOM = offset(IBV_DEVICE_ATTR, "max_qp_init_rd_atom");
    static final long DEVICE_ATTR_ATOMIC_CAP = offset(IBV_DEVICE_ATTR, "atomic_cap");
    static final long DEVICE_ATTR_PHYS_PORT_CNT = offset(IBV_DEVICE_ATTR, "phys_port_cnt");

    static final long PORT_ATTR_STATE = offset(IBV_PORT_ATTR, "state");
    static final long PORT_ATTR_MAX_MTU = offset(IBV_PORT_ATTR, "max_mtu");
    static final long PORT_ATTR_ACTIVE_MTU = offset(IBV_PORT_ATTR, "active_mtu");
    static final long PORT_ATTR_GID_TBL_LEN = offset(IBV_PORT_ATTR, "gid_tbl_len");
    static final long PORT_ATTR_MAX_MSG_SZ = offset(IBV_PORT_ATTR, "max_msg_sz");
    static final long PORT_ATTR_LID = offset(IBV_PORT_ATTR, "lid");
    static final long PORT_ATTR_ACTIVE_WIDTH = offset(IBV_PORT_ATTR, "active_width");
    static final long PORT_ATTR_ACTIVE_SPEED = offset(IBV_PORT_ATTR, "active_speed");
    static final long PORT_ATTR_LINK_LAYER = offset(IBV_PORT_ATTR, "link_layer");

    static final long ENDPOINT_GID = offset(ENDPOINT, "gid");
    static final long ENDPOINT_QP_NUM = offset(ENDPOINT, "qp_num");

    private VerbsLayouts() {
    }

    static long offset(final StructLayout layout, final String member) {
        for (final MemoryLayout top : layout.memberLayouts()) {
            if (top.name().filter(member::equals).isPresent()) {
                return layout.byteOffset(PathElement.groupElement(member)); // a member named by its C path
            }
        }
        // a member of a nested union or structure: "wr.atomic.rkey"
        final String[] parts = member.split("\\.");
        final PathElement[] path = new PathElement[parts.length];
        for (int i = 0; i < parts.length; i++) {
            path[i] = PathElement.groupElement(parts[i]);
        }
        return layout.byteOffset(path);
    }
}
