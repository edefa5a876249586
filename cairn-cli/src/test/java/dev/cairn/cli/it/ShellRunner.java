package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.it.ReadmeCommands.Command;
import dev.cairn.kafka.test.ProcessTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs documented commands as OS processes, as written but for the literals a test cannot reproduce, which its
 * substitutions replace (in order, in the whole command), and pointed at the test's broker and coordinator through
 * the environment. In: a command, a directory, extra variables; out: its exit code and output, or the running
 * process of a command that does not end by itself.
 */
final class ShellRunner {

    /** One command's run: exit code and output. */
    record Run(String command, int exit, String out, String err) {}

    private final Supplier<Map<String, String>> substitutions;
    private final Supplier<Map<String, String>> environment;

    /**
     * @param substitutions documented literals and what stands in for them, asked again for every command
     * @param environment the variables every command gets
     */
    ShellRunner(Supplier<Map<String, String>> substitutions, Supplier<Map<String, String>> environment) {
        this.substitutions = substitutions;
        this.environment = environment;
    }

    /** The command as it runs: every substitution applied. */
    String substitute(String command) {
        String result = command;
        for (Map.Entry<String, String> entry : substitutions.get().entrySet()) {
            result = result.replace(entry.getKey(), entry.getValue());
        }
        return result;
    }

    /** Runs {@code command} with {@code sh -c} in {@code dir}; it must exit 0 within two minutes. */
    Run run(List<Command> ran, Command command, Path dir, Map<String, String> extraEnv)
            throws IOException, InterruptedException {
        ran.add(command);
        String text = substitute(command.text());
        Path out = Files.createTempFile("readme-out-", ".txt");
        Path err = Files.createTempFile("readme-err-", ".txt");
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", text).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment(extraEnv));
        Process process = builder.start();
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);
        if (!ended) {
            ProcessTrees.kill(process.toHandle());
        }
        Run run = new Run(text, ended ? process.exitValue() : -1, Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        assertThat(run.exit()).as("exit code of %s (%s)%nstdout: %s%nstderr: %s", text, command, run.out(), run.err())
                .isZero();
        return run;
    }

    /**
     * Starts a command that runs until it is stopped (a server, a worker, a sidecar), its output in {@code log}.
     * {@code exec}: the process is the program itself, not a shell, so that {@link #stop} signals the program.
     */
    Process start(List<Command> ran, Command command, Path dir, Map<String, String> extraEnv, Path log)
            throws IOException {
        ran.add(command);
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", "exec " + substitute(command.text()))
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment(extraEnv));
        return builder.start();
    }

    /**
     * Sends SIGTERM and waits up to 30 s; a process that has not stopped by then is killed with everything it
     * started. Returns whether it stopped on SIGTERM.
     */
    static boolean stop(Process process) {
        return ProcessTrees.stop(process.toHandle(), Duration.ofSeconds(30));
    }

    /**
     * Makes {@code scratch} a view of the repository in which the build output is where the documented paths expect
     * it: a link to each of {@code entries} (e.g. {@code bin}, {@code cairn-cli}), and nothing else.
     */
    static Path repositoryView(Path scratch, String... entries) throws IOException {
        for (String entry : entries) {
            Files.createSymbolicLink(scratch.resolve(entry), DocumentedCommands.ROOT.resolve(entry));
        }
        return scratch;
    }

    private Map<String, String> environment(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(environment.get());
        env.putAll(extra);
        return env;
    }
}
