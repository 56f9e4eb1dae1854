package io.rdmareactive.provider.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A process of another user is refused: the directory (0700) keeps it from the socket; where that mode was
 * loosened, the listener asks the kernel who connected (SO_PEERCRED) and rejects a process of another user, saying
 * why, and carries on. Needs root (to run the intruder as {@code nobody} with {@code setpriv}) and python3; skipped
 * elsewhere.
 */
class ShmOtherUserTest {

    private static final String INTRUDER = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(sys.argv[1])
        except OSError as e:
            print("connect failed:", e.strerror); sys.exit(0)
        s.settimeout(10)
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk: break
            data += chunk
        print("answer:", data.decode("utf-8", "replace"))
        """;

    @ShmTestDirectory
    private Path directory;

    private static String runAsNobody(final Path socket) throws Exception {
        final Process process = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
            "/usr/bin/python3", "-c", INTRUDER, socket.toString()).redirectErrorStream(true).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the intruder ends").isTrue();
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    @Test
    void aProcessOfAnotherUserIsRefusedAndTheListenerCarriesOn() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to run a process as nobody");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) && Files.isExecutable(Path.of("/usr/bin/python3")),
            "needs setpriv and /usr/bin/python3");
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             Listener listener = device.listen("guarded")) {
            final Path socket = directory.resolve("guarded.sock");
            assertThat(Files.exists(socket)).isTrue();

            // as deployed: the directory's mode keeps the intruder from the socket
            assertThat(runAsNobody(socket)).isEqualTo("connect failed: Permission denied");

            // a loosened directory: the listener itself refuses the other user, with the reason
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rwxrwxrwx"));
            final CompletableFuture<ConnectRequest> accepting = CompletableFuture.supplyAsync(() ->
                listener.accept(Duration.ofSeconds(5)));
            final String answer = runAsNobody(socket);
            assertThat(accepting.get(30, TimeUnit.SECONDS)).as("a connect request from the intruder").isNull();
            assertThat(answer).startsWith("answer:")
                .contains("the peer process runs as user 'nobody', this one as 'root': shared-memory peers must be "
                    + "the same user");
            assertThat(List.of(device.listen("still-serving").address())).containsExactly("still-serving");
        }
    }

    @Test
    void aUserWithoutANameIsStillItselfToItsDirectoryAndItsPeers() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to run a process as another uid");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv");
        final int uid = 54321;
        assumeTrue(!Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(line -> line.split(":")[2]
            .equals(Integer.toString(uid))), "uid " + uid + " has a passwd entry here");
        final Path nameless = Path.of("/tmp", "rr-nameless-" + ProcessHandle.current().pid());
        final List<String> setpriv = List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups",
            "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search");
        final List<String> probe = new ArrayList<>(setpriv);
        probe.add("/bin/true");
        final Process probing = new ProcessBuilder(probe).redirectErrorStream(true).start();
        assumeTrue(probing.waitFor(30, TimeUnit.SECONDS) && probing.exitValue() == 0,
            "setpriv cannot give a process an ambient capability here");
        // the capability lets it read this build's class path (under /root); it writes only its own directory
        try (ChildJvm child = ChildJvmLauncher.of(NamelessUserPeer.class).wrappedIn(setpriv).jvmOptions("-Xmx128m")
            .args(nameless.toString()).start()) {
            final int status = child.awaitExit(Duration.ofSeconds(120));
            final String output = child.output();
            assertThat(status).as("the child's exit; it said:%n%s", output).isZero();
            assertThat(output).contains("CONNECTED");
        } finally {
            new ProcessBuilder("rm", "-rf", nameless.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
