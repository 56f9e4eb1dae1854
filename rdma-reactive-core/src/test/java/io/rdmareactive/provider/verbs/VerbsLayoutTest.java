package io.rdmareactive.provider.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every structure the binding declares in {@link VerbsLayouts}, against the installed headers: a C program prints
 * {@code sizeof} of each structure and {@code offsetof}/{@code sizeof} of each member the binding names, and each
 * must equal the Java layout's. Needs gcc and the rdma-core headers ({@code libibverbs-dev}, {@code librdmacm-dev},
 * which {@code .ci/run} installs); without them the test is skipped and says which is missing.
 */
class VerbsLayoutTest {

    private static final Path VERBS_H = Path.of("/usr/include/infiniband/verbs.h");
    private static final Path RDMA_CMA_H = Path.of("/usr/include/rdma/rdma_cma.h");

    @Test
    void everyLayoutMatchesTheInstalledHeaders(@TempDir final Path dir) throws IOException, InterruptedException {
        assumeTrue(Files.exists(VERBS_H), "the verbs headers are not installed (" + VERBS_H + "): apt install "
            + "libibverbs-dev librdmacm-dev");
        assumeTrue(Files.exists(RDMA_CMA_H), "the rdma_cm headers are not installed (" + RDMA_CMA_H + "): apt install "
            + "librdmacm-dev");
        final Path gcc = findOnPath("gcc");
        assumeTrue(gcc != null, "gcc is not installed: apt install gcc");

        final Map<String, Long> java = new TreeMap<>();
        final StringBuilder program = new StringBuilder("""
            #include <stdio.h>
            #include <stddef.h>
            #include <poll.h>
            #include <sys/resource.h>
            #include <netinet/in.h>
            #include <infiniband/verbs.h>
            #include <rdma/rdma_cma.h>
            #define MEMBER(s, m) printf("%s.%s@offset %zu\\n%s.%s@size %zu\\n", #s, #m, offsetof(struct s, m), \
                #s, #m, sizeof(((struct s *) 0)->m))
            int main(void) {
            """);
        for (final Map.Entry<String, StructLayout> entry : new TreeMap<>(VerbsLayouts.BY_C_NAME).entrySet()) {
            final String struct = entry.getKey();
            final StructLayout layout = entry.getValue();
            program.append("    printf(\"%s@size %zu\\n\", \"").append(struct).append("\", sizeof(struct ")
                .append(struct).append("));\n");
            java.put(struct + "@size", layout.byteSize());
            members(struct, layout, layout, "", program, java);
        }
        // the GID, which the binding also lays out outside a C structure (VerbsLayouts.ENDPOINT)
        program.append("    printf(\"ibv_gid@size %zu\\n\", sizeof(union ibv_gid));\n");
        java.put("ibv_gid@size", VerbsLayouts.GID.byteSize());
        program.append("    return 0;\n}\n");
        final Path source = dir.resolve("layouts.c");
        Files.writeString(source, program);
        final Path binary = dir.resolve("layouts");
        final String compile = run(dir, gcc.toString(), "-o", binary.toString(), source.toString());
        assertThat(Files.exists(binary)).as("gcc compiled the layout program:%n%s%n%s", compile, program).isTrue();

        final Map<String, Long> c = new HashMap<>();
        for (final String line : run(dir, binary.toString()).split("\n")) {
            final int space = line.lastIndexOf(' ');
            if (space > 0) {
                c.put(line.substring(0, space), Long.parseLong(line.substring(space + 1).trim()));
            }
        }
        assertThat(differences(java, c)).as("layouts that differ from the installed headers (%d values checked)",
            java.size()).isEmpty();
        assertThat(c).as("values the C program printed").hasSize(java.size());
        assertThat(differences(NAMED_OFFSETS, c)).as("named offsets and lengths that differ from the installed headers")
            .isEmpty();
    }

    /** @return each value of {@code java} that the C program printed otherwise, as {@code key: Java j, C c} */
    private static List<String> differences(final Map<String, Long> java, final Map<String, Long> c) {
        final List<String> differences = new ArrayList<>();
        new TreeMap<>(java).forEach((key, value) -> {
            if (!value.equals(c.get(key))) {
                differences.add(key + ": Java " + value + ", C " + c.get(key));
            }
        });
        return differences;
    }

    /**
     * The constants the binding reads sockets, poll files, asynchronous events and device and port attributes with,
     * by the value of the C program that each must equal: {@code struct.member@offset}, {@code struct.member@size}.
     */
    private static final Map<String, Long> NAMED_OFFSETS = Map.ofEntries(
        Map.entry("sockaddr.sa_family@offset", VerbsLayouts.SOCKADDR_FAMILY),
        Map.entry("sockaddr@size", VerbsLayouts.SOCKADDR.byteSize()),
        Map.entry("sockaddr_in.sin_family@offset", VerbsLayouts.SOCKADDR_IN_FAMILY),
        Map.entry("sockaddr_in.sin_port@offset", VerbsLayouts.SOCKADDR_IN_PORT),
        Map.entry("sockaddr_in.sin_addr@offset", VerbsLayouts.SOCKADDR_IN_ADDR),
        Map.entry("sockaddr_in.sin_addr@size", VerbsLayouts.SOCKADDR_IN_ADDR_LENGTH),
        Map.entry("pollfd.fd@offset", VerbsLayouts.POLLFD_FD),
        Map.entry("pollfd.events@offset", VerbsLayouts.POLLFD_EVENTS),
        Map.entry("pollfd.revents@offset", VerbsLayouts.POLLFD_REVENTS),
        Map.entry("pollfd@size", VerbsLayouts.POLLFD.byteSize()),
        Map.entry("ibv_async_event.element.qp@offset", VerbsLayouts.ASYNC_EVENT_ELEMENT),
        Map.entry("ibv_async_event.event_type@offset", VerbsLayouts.ASYNC_EVENT_TYPE),
        Map.entry("ibv_device_attr.fw_ver@offset", VerbsLayouts.DEVICE_ATTR_FW_VER),
        Map.entry("ibv_device_attr.fw_ver@size", VerbsLayouts.DEVICE_ATTR_FW_VER_LENGTH),
        Map.entry("ibv_device_attr.node_guid@offset", VerbsLayouts.DEVICE_ATTR_NODE_GUID),
        Map.entry("ibv_device_attr.max_mr_size@offset", VerbsLayouts.DEVICE_ATTR_MAX_MR_SIZE),
        Map.entry("ibv_device_attr.vendor_id@offset", VerbsLayouts.DEVICE_ATTR_VENDOR_ID),
        Map.entry("ibv_device_attr.vendor_part_id@offset", VerbsLayouts.DEVICE_ATTR_VENDOR_PART_ID),
        Map.entry("ibv_device_attr.max_qp@offset", VerbsLayouts.DEVICE_ATTR_MAX_QP),
        Map.entry("ibv_device_attr.max_qp_wr@offset", VerbsLayouts.DEVICE_ATTR_MAX_QP_WR),
        Map.entry("ibv_device_attr.max_sge@offset", VerbsLayouts.DEVICE_ATTR_MAX_SGE),
        Map.entry("ibv_device_attr.max_cq@offset", VerbsLayouts.DEVICE_ATTR_MAX_CQ),
        Map.entry("ibv_device_attr.max_cqe@offset", VerbsLayouts.DEVICE_ATTR_MAX_CQE),
        Map.entry("ibv_device_attr.max_qp_rd_atom@offset", VerbsLayouts.DEVICE_ATTR_MAX_QP_RD_ATOM),
        Map.entry("ibv_device_attr.max_qp_init_rd_atom@offset", VerbsLayouts.DEVICE_ATTR_MAX_QP_INIT_RD_ATOM),
        Map.entry("ibv_device_attr.atomic_cap@offset", VerbsLayouts.DEVICE_ATTR_ATOMIC_CAP),
        Map.entry("ibv_device_attr.phys_port_cnt@offset", VerbsLayouts.DEVICE_ATTR_PHYS_PORT_CNT),
        Map.entry("ibv_port_attr.state@offset", VerbsLayouts.PORT_ATTR_STATE),
        Map.entry("ibv_port_attr.max_mtu@offset", VerbsLayouts.PORT_ATTR_MAX_MTU),
        Map.entry("ibv_port_attr.active_mtu@offset", VerbsLayouts.PORT_ATTR_ACTIVE_MTU),
        Map.entry("ibv_port_attr.gid_tbl_len@offset", VerbsLayouts.PORT_ATTR_GID_TBL_LEN),
        Map.entry("ibv_port_attr.max_msg_sz@offset", VerbsLayouts.PORT_ATTR_MAX_MSG_SZ),
        Map.entry("ibv_port_attr.lid@offset", VerbsLayouts.PORT_ATTR_LID),
        Map.entry("ibv_port_attr.active_width@offset", VerbsLayouts.PORT_ATTR_ACTIVE_WIDTH),
        Map.entry("ibv_port_attr.active_speed@offset", VerbsLayouts.PORT_ATTR_ACTIVE_SPEED),
        Map.entry("ibv_port_attr.link_layer@offset", VerbsLayouts.PORT_ATTR_LINK_LAYER),
        Map.entry("ibv_gid@size", VerbsLayouts.GID_LENGTH));

    /** Each named member, and those of named nested unions and structures by their C path ({@code wr.atomic.rkey}). */
    private static void members(final String struct, final StructLayout layout, final GroupLayout group,
                                final String prefix, final StringBuilder program, final Map<String, Long> java) {
        for (final MemoryLayout member : group.memberLayouts()) {
            if (member instanceof PaddingLayout || member.name().isEmpty()) {
                continue;
            }
            final String name = prefix + member.name().orElseThrow();
            program.append("    MEMBER(").append(struct).append(", ").append(name).append(");\n");
            java.put(struct + "." + name + "@offset", VerbsLayouts.offset(layout, name));
            java.put(struct + "." + name + "@size", member.byteSize());
            if (member instanceof GroupLayout nested) {
                members(struct, layout, nested, name + ".", program, java);
            }
        }
    }

    @Test
    void groupLayoutsHaveNoUnnamedValueMembers() {
        VerbsLayouts.BY_C_NAME.forEach((struct, layout) -> {
            for (final MemoryLayout member : layout.memberLayouts()) {
                if (!(member instanceof PaddingLayout) && !(member instanceof GroupLayout)) {
                    assertThat(member.name()).as("a member of %s without a name", struct).isPresent();
                }
            }
        });
    }

    @Test
    void theConnectionAndQueuePairSetUpFieldsLieWhereLp64LinuxPutsThem() {
        // the members the device writes when it connects and creates a queue pair, as the C structures place them
        // on every LP64 Linux (rdma_conn_param, ibv_qp_init_attr with its ibv_qp_cap), and the 16-byte GID
        assertThat(List.of(VerbsLayouts.CONN_PARAM_PRIVATE_DATA, VerbsLayouts.CONN_PARAM_PRIVATE_DATA_LEN,
            VerbsLayouts.CONN_PARAM_RESPONDER_RESOURCES, VerbsLayouts.CONN_PARAM_INITIATOR_DEPTH,
            VerbsLayouts.CONN_PARAM_RETRY_COUNT, VerbsLayouts.CONN_PARAM_RNR_RETRY_COUNT))
            .containsExactly(0L, 8L, 9L, 10L, 12L, 13L);
        assertThat(List.of(VerbsLayouts.QP_INIT_ATTR_SEND_CQ, VerbsLayouts.QP_INIT_ATTR_RECV_CQ,
            VerbsLayouts.QP_INIT_ATTR_MAX_SEND_WR, VerbsLayouts.QP_INIT_ATTR_MAX_RECV_WR,
            VerbsLayouts.QP_INIT_ATTR_MAX_SEND_SGE, VerbsLayouts.QP_INIT_ATTR_MAX_RECV_SGE,
            VerbsLayouts.QP_INIT_ATTR_MAX_INLINE_DATA, VerbsLayouts.QP_INIT_ATTR_QP_TYPE,
            VerbsLayouts.QP_INIT_ATTR_SQ_SIG_ALL))
            .containsExactly(8L, 16L, 32L, 36L, 40L, 44L, 48L, 52L, 56L);
        assertThat(VerbsLayouts.EVENT_CHANNEL_FD).isZero();
        assertThat(VerbsLayouts.RLIMIT_CUR).isZero();
        assertThat(VerbsLayouts.GID_LENGTH).isEqualTo(16);
    }

    @Test
    void anEndpointIsTheGidThenTheBigEndianQueuePairNumber() {
        // the bytes authentication binds (QueuePair.localEndpoint); the two sides of a connection must agree on them
        assertThat(VerbsLayouts.ENDPOINT_GID).isZero();
        assertThat(VerbsLayouts.ENDPOINT_QP_NUM).isEqualTo(VerbsLayouts.GID_LENGTH);
        assertThat(VerbsLayouts.ENDPOINT.byteSize()).isEqualTo(20);
        final byte[] gid = new byte[16];
        for (int i = 0; i < gid.length; i++) {
            gid[i] = (byte) (i + 1);
        }
        assertThat(VerbsQueuePair.endpoint(gid, 0x01020304)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
            14, 15, 16, 1, 2, 3, 4);
    }

    @Test
    void anIpv4SocketAddressIsWrittenAndDescribedThroughItsLayout() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment sockaddr = VerbsAddress.parse("192.168.1.10:7471").toSockaddr(arena);
            // AF_INET, then the port and the address in network byte order, as the C structure holds them
            assertThat(sockaddr.asSlice(0, 8).toArray(ValueLayout.JAVA_BYTE)).containsExactly(
                AF_INET_LOW_BYTE, 0, 0x1d, 0x2f, 192 - 256, 168 - 256, 1, 10);
            assertThat(VerbsAddress.describe(sockaddr)).isEqualTo("192.168.1.10:7471");
            sockaddr.set(ValueLayout.JAVA_SHORT, VerbsLayouts.SOCKADDR_FAMILY, (short) 10);
            assertThat(VerbsAddress.describe(sockaddr)).isEqualTo("(address family 10)");
        }
    }

    /** {@code AF_INET} (2) in the first byte of the little-endian {@code sa_family_t}. */
    private static final int AF_INET_LOW_BYTE = 2;

    private static Path findOnPath(final String program) {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            final Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static String run(final Path dir, final String... command) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        final byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s finished", List.of(command)).isTrue();
        return new String(output, StandardCharsets.UTF_8);
    }
}
