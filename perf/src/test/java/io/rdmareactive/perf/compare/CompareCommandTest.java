package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.rdmareactive.internal.driver.Durations;
import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.VerbsNodes;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CompareCommandTest {

    private static Settings parse(final String... args) {
        final CompareCommand command = new CompareCommand(new PrintStream(PrintStream.nullOutputStream()));
        new CommandLine(command).parseArgs(args);
        return command.settings("none");
    }

    @Test
    void theDefaultsCompareEveryTransportInAFewMinutes() {
        final Settings settings = parse();
        assertThat(settings.transports()).containsExactly("aeron-ipc", "aeron-udp", "rr-shm-raw", "rr-shm-flux",
            "netty-tcp", "rsocket-tcp", "rr-verbs-raw", "rr-verbs-flux");
        assertThat(settings.workloads()).containsExactly("ping-pong", "throughput", "backpressure",
            "request-response", "connections", "all-reduce");
        assertThat(settings.traffic().allReduceRanks()).isEqualTo(4);
        assertThat(settings.traffic().allReduceSizes()).containsExactly(8, 64 << 10, 1 << 20, 16 << 20);
        assertThat(settings.pingSizes()).containsExactly(32, 256, 4096, 65536);
        assertThat(settings.throughputSizes()).containsExactly(32, 256, 4096, 65536, 1 << 20);
        assertThat(settings.idle()).isEqualTo(Idle.YIELDING);
        assertThat(settings.fixedRate()).isEqualTo(1000);
        assertThat(settings.warmUp()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.duration()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.output().isAbsolute()).isTrue();
        assertThat(settings.rrSizes()).containsExactly(32);
        assertThat(settings.rrInFlight()).isEqualTo(256);
        assertThat(settings.connectionCounts()).containsExactly(1, 100, 1000);
        assertThat(settings.connectionsOpen()).isEqualTo(Duration.ofSeconds(120));
        assertThat(settings.memcpySizes()).containsExactly(65536, 1 << 20);
    }

    @Test
    void theNewWorkloadsTakeTheirOptions() {
        final Settings settings = parse("--workloads=request-response,connections,memcpy", "--rr-sizes=64,4096",
            "--rr-in-flight=32", "--connection-counts=1,3,3", "--connections-open-timeout=5s", "--sizes=32,128");
        assertThat(settings.workloads()).containsExactly("request-response", "connections", "memcpy");
        assertThat(settings.rrSizes()).containsExactly(64, 4096);
        assertThat(settings.rrInFlight()).isEqualTo(32);
        assertThat(settings.connectionCounts()).containsExactly(1, 3);
        assertThat(settings.connectionsOpen()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.memcpySizes()).as("no throughput size of 64 KiB or more").containsExactly(65536, 1 << 20);
        assertThat(parse("--memcpy-sizes=4096").memcpySizes()).containsExactly(4096);
        assertThat(parse("--sizes=1048576,131072").memcpySizes()).containsExactly(1 << 20, 131072);
        assertThat(parse("--workloads=throughput", "--sizes=32").memcpySizes())
            .as("throughput brings the baseline only at its sizes of 64 KiB and up").isEmpty();
    }

    @Test
    void optionsChooseTransportsSizesTimesAndTheIdleStrategy() {
        final Settings settings = parse("--transports=aeron-ipc,rr-shm-raw", "--ping-sizes=64", "-s", "128,1024",
            "--warm-up=500ms", "--duration=1.5s", "--idle=busy-spin", "--streams=1,4", "--fixed-rate=0",
            "--output=/tmp/x");
        assertThat(settings.transports()).containsExactly("aeron-ipc", "rr-shm-raw");
        assertThat(settings.pingSizes()).containsExactly(64);
        assertThat(settings.throughputSizes()).containsExactly(128, 1024);
        assertThat(settings.warmUp()).isEqualTo(Duration.ofMillis(500));
        assertThat(settings.duration()).isEqualTo(Duration.ofMillis(1500));
        assertThat(settings.idle()).isEqualTo(Idle.BUSY_SPIN);
        assertThat(settings.streams()).containsExactly(1, 4);
        assertThat(settings.fixedRate()).isZero();
        assertThat(settings.output()).isEqualTo(Path.of("/tmp/x"));
    }

    @Test
    void theIdleStrategyTakesTheLibrarysParameters() {
        assertThat(parse("--idle=Backoff:maxSpins=10,maxYields=20,minPark=1us,maxPark=100us").idle().newStrategy())
            .hasToString(new BackoffIdleStrategy(10, 20, 1_000, 100_000).toString());
        assertThat(parse("--idle=sleeping:100us").idle().spec()).isEqualTo("sleeping:100us");
    }

    @Test
    void durationsAreReadAsTheLibraryReadsThem() {
        final CompareCommand.DurationConverter converter = new CompareCommand.DurationConverter();
        assertThat(converter.convert("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(converter.convert("3s")).isEqualTo(Duration.ofSeconds(3));
        assertThat(converter.convert("1m")).isEqualTo(Duration.ofMinutes(1));
        assertThat(converter.convert("PT2S")).isEqualTo(Duration.ofSeconds(2));
        assertThatThrownBy(() -> converter.convert("3")).isInstanceOf(CommandLine.TypeConversionException.class)
            .hasMessage(catchThrowable(() -> Durations.parse("3")).getMessage())
            .hasMessageContaining("'3'").hasMessageContaining("no unit");
        assertThatThrownBy(() -> parse("--warm-up=twos")).hasMessageContaining("'twos' is not a duration");
    }

    @Test
    void wrongValuesAreRefusedNamingWhatIsAllowed() {
        assertThatThrownBy(() -> parse("--transports=zeromq")).hasMessageContaining("unknown transport 'zeromq'")
            .hasMessageContaining("aeron-udp");
        assertThatThrownBy(() -> parse("--workloads=soak")).hasMessageContaining("unknown workload 'soak'");
        assertThatThrownBy(() -> parse("--sizes=4")).hasMessageContaining("8 bytes");
        assertThatThrownBy(() -> parse("--idle=napping")).hasMessageContaining("unknown idle strategy 'napping'")
            .hasMessageContaining("busy-spin | no-op | yielding | backoff");
        assertThatThrownBy(() -> parse("--duration=0s")).hasMessageContaining("--duration must be positive");
        assertThatThrownBy(() -> parse("--workloads=soak")).hasMessageContaining("request-response, connections, "
            + "memcpy");
        assertThatThrownBy(() -> parse("--rr-sizes=4")).hasMessageContaining("8 bytes");
        assertThatThrownBy(() -> parse("--rr-in-flight=0")).hasMessageContaining("--rr-in-flight");
        assertThatThrownBy(() -> parse("--connection-counts=0")).hasMessageContaining("--connection-counts");
        assertThatThrownBy(() -> parse("--connections-open-timeout=0s")).hasMessageContaining("positive");
    }

    @Test
    void verbsRunsOnOneDeviceUnlessTwoAreNamed() {
        assertThat(parse().verbs()).as("no --verbs-address").isNull();
        final Settings one = parse("--verbs-address=10.0.2.15:7490");
        assertThat(one.verbs().address()).isEqualTo("10.0.2.15:7490");
        assertThat(one.verbs().twoDevices()).isFalse();
        assertThat(one.asMap()).containsEntry("verbsAddress", "10.0.2.15:7490").doesNotContainKey("verbsServerDevice");

        final Settings two = parse("--verbs-address=10.77.0.1:7490", "--verbs-server-device=rxe-a",
            "--verbs-client-device=rxe-b", "--verbs-client-address=10.77.0.2");
        assertThat(two.verbs()).isEqualTo(new VerbsNodes("10.77.0.1:7490", "rxe-a", "rxe-b", "10.77.0.2"));
        assertThat(two.asMap()).containsEntry("verbsServerDevice", "rxe-a").containsEntry("verbsClientDevice", "rxe-b")
            .containsEntry("verbsClientAddress", "10.77.0.2");
        assertThat(parse("--verbs-address=10.77.0.1:7490", "--verbs-server-device=rxe-a",
            "--verbs-client-device=rxe-b").verbs().clientHost()).as("node B's address is optional").isNull();
    }

    @Test
    void verbsDevicesAreNamedTogetherAndNodeBsAddressOnlyWithThem() {
        assertThatThrownBy(() -> parse("--verbs-address=10.77.0.1:7490", "--verbs-server-device=rxe-a"))
            .isInstanceOf(CommandLine.ParameterException.class)
            .hasMessageContaining("--verbs-server-device and --verbs-client-device are given together");
        assertThatThrownBy(() -> parse("--verbs-address=10.77.0.1:7490", "--verbs-client-device=rxe-b"))
            .hasMessageContaining("given together");
        assertThatThrownBy(() -> parse("--verbs-address=10.77.0.1:7490", "--verbs-client-address=10.77.0.2"))
            .hasMessageContaining("--verbs-client-address is node B's IP")
            .hasMessageContaining("with --verbs-server-device and --verbs-client-device");
        assertThatThrownBy(() -> parse("--verbs-server-device=rxe-a", "--verbs-client-device=rxe-b"))
            .hasMessageContaining("need --verbs-address=IP:PORT");
        assertThatThrownBy(() -> parse("--verbs-address=10.77.0.1", "--verbs-server-device=rxe-a",
            "--verbs-client-device=rxe-b")).hasMessageContaining("--verbs-address is IP:PORT");
        assertThatThrownBy(() -> parse("--verbs-address=10.77.0.1:7490", "--verbs-server-device=rxe-a",
            "--verbs-client-device=rxe-b", "--verbs-client-address=10.77.0.2:7490"))
            .hasMessageContaining("an IP without a port");
        assertThatThrownBy(() -> parse("--verbs-address=10.77.0.1:7490", "--verbs-server-device=rxe-a",
            "--verbs-client-device=rxe-b", "--verbs-client-address=10.77.0.1"))
            .hasMessageContaining("not --verbs-address's");
    }

    @Test
    void theHelpNamesTheVerbsDeviceOptions() {
        final String help = new CommandLine(new CompareCommand(new PrintStream(PrintStream.nullOutputStream())))
            .getUsageMessage();
        assertThat(help).contains("--verbs-server-device=NAME").contains("--verbs-client-device=NAME")
            .contains("--verbs-client-address=IP");
    }

    @Test
    void libraryVersionsAreReadFromTheBuildsDependencyList() {
        final String list = String.join("\n", "The following files have been resolved:",
            "   io.aeron:aeron-client:jar:1.50.0:compile -- module io.aeron.client",
            "   io.netty:netty-transport:jar:4.2.7.Final:compile",
            "   org.example:thing:jar:tests:2.0:compile");
        assertThat(Environment.versionIn(list, "io.aeron:aeron-client")).isEqualTo("1.50.0");
        assertThat(Environment.versionIn(list, "io.netty:netty-transport")).isEqualTo("4.2.7.Final");
        assertThat(Environment.versionIn(list, "org.example:thing")).isEqualTo("2.0");
        assertThat(Environment.versionIn(list, "org.agrona:agrona")).isNull();
        assertThat(List.of(Report.bytes(32), Report.bytes(4096), Report.bytes(1 << 20), Report.bytes(1000)))
            .containsExactly("32 B", "4 KiB", "1 MiB", "1000 B");
    }
}
