package io.rdmareactive.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildJvmLauncherTest {

    @Test
    void theChildGetsThisJvmsOptionsInOrderThenItsOwnThenTheClassPathMainClassAndArguments() {
        final List<String> command = ChildJvmLauncher.of(EchoPeer.class).jvmOptions("-Xmx64m", "-Dpeer=yes")
            .args("a", "b").command();

        final List<String> inherited = JvmOptions.inherited();
        assertThat(command.getFirst()).endsWith("/bin/java");
        assertThat(command.subList(1, 1 + inherited.size())).isEqualTo(inherited);
        assertThat(command.subList(1 + inherited.size(), command.size())).containsExactly("-Xmx64m", "-Dpeer=yes",
            "-cp", System.getProperty("java.class.path"), EchoPeer.class.getName(), "a", "b");
    }

    @Test
    void aWrapperComesFirstAndAnOptionLeftOutIsNotInherited() {
        final List<String> command = ChildJvmLauncher.of(EchoPeer.class).wrappedIn(List.of("setpriv", "--reuid=1"))
            .withoutInheritedOption("--enable-native-access").classPath("/elsewhere").command();

        assertThat(command.subList(0, 2)).containsExactly("setpriv", "--reuid=1");
        assertThat(command.get(2)).endsWith("/bin/java");
        assertThat(command).noneMatch(option -> option.startsWith("--enable-native-access"))
            .contains("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED")
            .containsSubsequence("-cp", "/elsewhere", EchoPeer.class.getName());
    }

    @Test
    void theChildsLinesAreKeptItsInputReachesItAndItsExitStatusIsReported() {
        try (ChildJvm child = ChildJvmLauncher.of(EchoPeer.class).jvmOptions("-Xmx32m")
            .environment("ECHO_PEER_GREETING", "hello").args("first").start()) {
            assertThat(child.awaitLine("READY")).isEqualTo("READY first hello");
            child.send("ping");
            child.awaitLines("echo ", 1, Duration.ofSeconds(60));
            child.send("exit");
            assertThat(child.awaitExit()).isEqualTo(3);
            assertThat(child.lines()).containsExactly("READY first hello", "echo ping", "bye");
        }
    }

    @Test
    void waitingForALineTheChildNeverPrintsFailsWithWhatItSaid() {
        try (ChildJvm child = ChildJvmLauncher.of(EchoPeer.class).args("quiet").start()) {
            child.awaitLine("READY");
            child.send("exit");
            assertThatThrownBy(() -> child.awaitLine("never printed")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("exited (3) without printing 'never printed'")
                .hasMessageContaining("READY quiet");
        }
    }

    @Test
    void anInheritedOutputIsNotKeptWhileInputAndExitStatusStillWork() {
        try (ChildJvm child = ChildJvmLauncher.of(EchoPeer.class).args("inherited").inheritOutput().start()) {
            child.send("exit");
            assertThat(child.awaitExit()).isEqualTo(3);
            assertThat(child.lines()).as("printed to this JVM's own output, not kept").isEmpty();
        }
    }

    @Test
    void closingKillsAChildThatStillRuns() {
        final ChildJvm child = ChildJvmLauncher.of(EchoPeer.class).start();
        child.awaitLine("READY");
        child.close();
        assertThat(child.isAlive()).isFalse();
    }
}
