package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.kafka.test.ProcessTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * {@code docs/examples/http_worker.py} as a child process: started with a python3 executable on a free loopback
 * port (the script binds port 0 and prints the port it got), its state files in a directory of the test's, its
 * output in a log the test reads back as what the worker reported (snapshots, notifications, restores).
 */
final class PythonWorker {

    static final Path SCRIPT = Path.of("..", "docs", "examples", "http_worker.py").toAbsolutePath().normalize();
    private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern SNAPSHOT =
            Pattern.compile("snapshot (\\d+): value (\\d+) at (\\S+) \\((\\d+) bytes\\)");
    private static final Pattern RESTORE = Pattern.compile("restored value (\\d+) from checkpoint (\\d+|none)");

    private final Process process;
    private final Path log;
    private final Path stateDir;
    private final URI url;

    /** A snapshot the worker reported: the checkpoint, the counter's value, and the state handle it answered. */
    record Snapshot(long checkpointId, long value, String location, long sizeBytes) {}

    /** A restore the worker reported: the value it restored and from which checkpoint (-1: a fresh start). */
    record Restore(int line, long value, long checkpointId) {}

    private PythonWorker(Process process, Path log, Path stateDir, URI url) {
        this.process = process;
        this.log = log;
        this.stateDir = stateDir;
        this.url = url;
    }

    /**
     * Starts the script with {@code python} in {@code dir} (state under {@code dir/state}, output in
     * {@code dir/worker.log}) and waits until it listens; a worker that does not is stopped and the test fails.
     */
    static PythonWorker start(Path python, Path dir) throws IOException {
        Path log = dir.resolve("worker.log");
        Path stateDir = dir.resolve("state");
        Process process = new ProcessBuilder(python.toString(), SCRIPT.toString(), "--port", "0", "--state-dir",
                stateDir.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String port = Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> {
                String output = Files.readString(log);
                assertThat(process.isAlive()).as("the Python worker runs; its output:%n%s", output).isTrue();
                Matcher listening = LISTENING.matcher(output);
                return listening.find() ? listening.group(1) : null;
            }, found -> found != null);
            return new PythonWorker(process, log, stateDir, URI.create("http://127.0.0.1:" + port));
        } catch (RuntimeException | AssertionError e) {
            stop(process);
            throw e;
        }
    }

    /** The base URL the sidecar's HTTP hook is given. */
    URI url() {
        return url;
    }

    /** Where the worker writes its snapshot files. */
    Path stateDir() {
        return stateDir;
    }

    /** The worker's output lines so far. */
    List<String> lines() {
        try {
            return Files.readAllLines(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last snapshot the worker reported for {@code checkpointId}; the test fails if it reported none. */
    Snapshot snapshot(long checkpointId) {
        List<Snapshot> matching = snapshots(lines()).stream().filter(s -> s.checkpointId() == checkpointId).toList();
        assertThat(matching).as("snapshots of checkpoint %d the worker reported", checkpointId).isNotEmpty();
        return matching.get(matching.size() - 1);
    }

    /** The snapshots the worker reported after {@code restore}, in order. */
    List<Snapshot> snapshotsAfter(Restore restore) {
        List<String> lines = lines();
        return snapshots(lines.subList(restore.line() + 1, lines.size()));
    }

    /** The restores the worker reported, in order. */
    List<Restore> restores() {
        List<String> lines = lines();
        List<Restore> restores = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = RESTORE.matcher(lines.get(i));
            if (m.matches()) {
                restores.add(new Restore(i, Long.parseLong(m.group(1)),
                        m.group(2).equals("none") ? -1 : Long.parseLong(m.group(2))));
            }
        }
        return restores;
    }

    /** Stops the worker and anything it started; waits until they are gone. */
    void stop() {
        stop(process);
    }

    private static List<Snapshot> snapshots(List<String> lines) {
        return lines.stream().map(SNAPSHOT::matcher).filter(Matcher::matches)
                .map(m -> new Snapshot(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), m.group(3),
                        Long.parseLong(m.group(4))))
                .toList();
    }

    private static void stop(Process process) {
        ProcessTrees.stop(process.toHandle(), Duration.ofSeconds(10));
    }
}
