package io.rdmareactive.provider.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
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
        final List<String> mismatches = new ArrayList<>();
        java.forEach((key, value) -> {
            if (!value.equals(c.get(key))) {
                mismatches.add(key + ": Java " + value + ", C " + c.get(key));
            }
        });
        assertThat(mismatches).as("layouts that differ from the installed headers (%d values checked)", java.size())
            .isEmpty();
        assertThat(c).as("values the C program printed").hasSize(java.size());
    }

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
