package io.rdmareactive.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** The child of {@link ChildJvmLauncherTest}: says READY, echoes each line of its input, exits with 3 on "exit". */
public final class EchoPeer {

    private EchoPeer() {
    }

    public static void main(final String[] args) throws IOException {
        System.out.println("READY " + (args.length > 0 ? args[0] : "") + " "
            + System.getenv().getOrDefault("ECHO_PEER_GREETING", ""));
        System.out.flush();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("exit")) {
                System.out.println("bye");
                System.exit(3);
            }
            System.out.println("echo " + line);
            System.out.flush();
        }
    }
}
