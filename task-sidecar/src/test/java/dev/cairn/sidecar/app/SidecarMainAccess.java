package dev.cairn.sidecar.app;

import java.util.Map;

/** Lets tests of other packages run {@link SidecarMain} with an environment of their own. */
public final class SidecarMainAccess {

    private SidecarMainAccess() {
    }

    /** A sidecar main that reads {@code environment} instead of the process's and starts real sidecars. */
    public static SidecarMain create(Map<String, String> environment) {
        return new SidecarMain(environment, Sidecar::start);
    }

    /** Runs it without arguments until {@link #stop}; returns its exit status. */
    public static int execute(SidecarMain main, String... args) {
        return SidecarMain.commandLine(main).execute(args);
    }

    /** What the process's shutdown hook does: ends the run and waits (up to 30 s) until it closed the sidecar. */
    public static void stop(SidecarMain main) {
        main.handshake.stop();
    }
}
