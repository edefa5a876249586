package dev.cairn.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * One coordinator instance as a separate OS process: {@code java -jar cairn-coordinator-service.jar} with the
 * flags this class builds (the only place the fault tests spell out a coordinator command line). It runs in the
 * secured default: sidecar records must be signed with keys derived from the run's master key file
 * ({@code --sidecar-master-key-file}). The instance keeps its state directory, instance id, REST and probes ports
 * across {@link #restart()}, as a restarted pod would. Its REST API listens on 127.0.0.1 and serves the live store
 * ({@code GET /jobs/{id}/checkpoints}).
 *
 * <p>The jar is this build's ({@code cairn.coordinator.jar}) unless a start names another release's: the upgrade
 * test starts the previous release with the same flags and then {@link #upgradeTo upgrades} the instance in place.
 * Releases 0.1.0 and later take every flag used here.
 */
final class CoordinatorProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** The bearer token that may change every job ({@code --http-tokens-file}, as the README's deployment has one). */
    static final String REST_TOKEN = "faults-token-0123456789abcdef";
    private static final Map<Path, Path> ARCHIVES = new HashMap<>();

    private final String name;
    private final Path dir;
    private List<String> flags;
    private final Path masterKeyFile;
    private final int httpPort;
    private final int probesPort;
    private Path jar;
    private ChildProcess process;
    private int incarnation;

    private CoordinatorProcess(Path jar, String name, Path dir, List<String> flags, Path masterKeyFile, int httpPort,
            int probesPort) {
        this.jar = jar;
        this.name = name;
        this.dir = dir;
        this.flags = flags;
        this.masterKeyFile = masterKeyFile;
        this.httpPort = httpPort;
        this.probesPort = probesPort;
    }

    /**
     * Starts instance {@code name} of application {@code applicationId} against {@code kafka} on topics
     * {@code prefix}* (replicated to every node), its state in {@code dir/name/state}, verifying sidecar records
     * with keys derived from {@code masterKeyFile}, with the flags of {@code tuning}; returns once the process runs
     * (not yet assigned).
     */
    static CoordinatorProcess start(String name, Path dir, BrokerCluster kafka, String applicationId,
            String topicPrefix, int partitions, Path masterKeyFile, FailoverTuning tuning) {
        return start(name, dir, kafka, applicationId, topicPrefix, partitions, masterKeyFile, tuning, List.of());
    }

    /**
     * {@link #start(String, Path, BrokerCluster, String, String, int, Path, FailoverTuning)} with {@code extraFlags}
     * after the others (e.g. {@code --snapshot-interval-ms=3000}), kept across restarts.
     */
    static CoordinatorProcess start(String name, Path dir, BrokerCluster kafka, String applicationId,
            String topicPrefix, int partitions, Path masterKeyFile, FailoverTuning tuning, List<String> extraFlags) {
        return start(Path.of(coordinatorJar()), name, dir, kafka, applicationId, topicPrefix, partitions, masterKeyFile,
                tuning, extraFlags);
    }

    /**
     * {@link #start(String, Path, BrokerCluster, String, String, int, Path, FailoverTuning)} with the coordinator
     * {@code jar}.
     */
    static CoordinatorProcess start(Path jar, String name, Path dir, BrokerCluster kafka, String applicationId,
            String topicPrefix, int partitions, Path masterKeyFile, FailoverTuning tuning) {
        return start(jar, name, dir, kafka, applicationId, topicPrefix, partitions, masterKeyFile, tuning, List.of());
    }

    /**
     * {@link #start(Path, String, Path, BrokerCluster, String, String, int, Path, FailoverTuning)} with
     * {@code extraFlags} after the others, kept across restarts and upgrades.
     */
    static CoordinatorProcess start(Path jar, String name, Path dir, BrokerCluster kafka, String applicationId,
            String topicPrefix, int partitions, Path masterKeyFile, FailoverTuning tuning, List<String> extraFlags) {
        int httpPort = freePort();
        int probesPort = freePort();
        Path home = dir.resolve(name);
        List<String> flags = new ArrayList<>(List.of(
                "--bootstrap-servers=" + kafka.bootstrapServers(),
                "--replication-factor=" + kafka.replicationFactor(),
                "--application-id=" + applicationId,
                "--topic-prefix=" + topicPrefix,
                "--partitions=" + partitions,
                "--state-dir=" + home.resolve("state"),
                "--tick-interval-ms=50",
                "--http-port=" + httpPort,
                "--http-probes-port=" + probesPort,
                "--http-bind-address=127.0.0.1",
                "--advertised-host=127.0.0.1",
                "--sidecar-master-key-file=" + masterKeyFile,
                "--http-tokens-file=" + tokensFile(dir)));
        flags.addAll(tuning.flags(name));
        flags.addAll(extraFlags);
        CoordinatorProcess coordinator = new CoordinatorProcess(jar, name, home, List.copyOf(flags), masterKeyFile,
                httpPort, probesPort);
        coordinator.launch();
        return coordinator;
    }

    private void launch() {
        incarnation++;
        List<String> command = new ArrayList<>(List.of("-Xmx384m", "-XX:+UseSerialGC"));
        classDataArchive(jar, masterKeyFile).ifPresent(archive -> command.add("-XX:SharedArchiveFile=" + archive));
        String logback = System.getProperty("cairn.faults.coordinator.logback", "");
        if (!logback.isBlank()) {
            command.add("-Dlogback.configurationFile=" + logback);
        }
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(flags);
        process = ChildProcess.startJava("coordinator " + name, command,
                dir.resolve("coordinator-" + incarnation + ".log"));
    }

    /**
     * The class-data-sharing archive every coordinator process of this JVM that runs {@code jar} starts with, made
     * once per jar by a {@code --rehearse} run under {@code -XX:ArchiveClassesAtExit} as docs/operations.md recommends
     * for deployments, with the master key file of the first coordinator that needs it (so that it builds the same
     * topology as the coordinators, with the deserializer that verifies signatures); none when
     * {@code cairn.faults.cds} is {@code false}. An archive holds the classes of one class path, so each release's
     * jar has its own.
     */
    private static synchronized Optional<Path> classDataArchive(Path jar, Path masterKeyFile) {
        if (!Boolean.parseBoolean(System.getProperty("cairn.faults.cds", "true"))) {
            return Optional.empty();
        }
        Path archive = ARCHIVES.get(jar);
        if (archive == null) {
            Path dir = Path.of(System.getProperty("cairn.faults.dir", "target/faults"));
            String id = ProcessHandle.current().pid() + "-" + ARCHIVES.size();
            Path file = dir.resolve("cairn-coordinator-" + id + ".jsa");
            ChildProcess.runJava("coordinator rehearsal", List.of("-Xmx384m", "-XX:+UseSerialGC",
                    "-XX:ArchiveClassesAtExit=" + file, "-jar", jar.toString(), "--rehearse",
                    "--sidecar-master-key-file=" + masterKeyFile,
                    "--state-dir=" + dir.resolve("rehearsal-state-" + id)),
                    dir.resolve("rehearsal-" + id + ".log"), Duration.ofSeconds(60));
            archive = file;
            ARCHIVES.put(jar, archive);
        }
        return Optional.of(archive);
    }

    /** Makes the class-data archive of {@code jar} now, if the run uses one, so that its first start is not slower. */
    static void prepare(Path jar, Path masterKeyFile) {
        classDataArchive(jar, masterKeyFile);
    }

    private static String coordinatorJar() {
        String jar = System.getProperty("cairn.coordinator.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("system property cairn.coordinator.jar must name the built coordinator "
                    + "jar (mvn package builds coordinator-service/target/cairn-coordinator-service.jar), was " + jar);
        }
        return jar;
    }

    String name() {
        return name;
    }

    /** SIGKILL: no leave-group, no transaction commit or abort, no state checkpoint. */
    void kill() {
        process.kill();
    }

    /** SIGTERM: a clean stop that leaves the group. */
    void stop() {
        process.stop(Duration.ofSeconds(40));
    }

    /** Starts the process again with the same flags, state directory and REST port. */
    void restart() {
        if (process.isAlive()) {
            process.kill();
        }
        launch();
    }

    /**
     * Stops the instance cleanly (SIGTERM) and starts it again with {@code moreFlags} after its flags (e.g. another
     * {@code --request-freshness-ms}), kept across later restarts; same state directory, instance id and ports.
     */
    void restartWith(List<String> moreFlags) {
        stop();
        List<String> changed = new ArrayList<>(flags);
        changed.addAll(moreFlags);
        flags = List.copyOf(changed);
        launch();
    }

    /**
     * Starts the stopped instance again on another release's coordinator {@code jar}, with the same flags (so the same
     * application id, topics and state directory) and the same REST port: an upgrade in place.
     */
    void upgradeTo(Path jar) {
        if (process.isAlive()) {
            throw new IllegalStateException(this + " still runs: stop it before upgrading it");
        }
        this.jar = jar;
        launch();
    }

    /** The log file of the current process (each start has its own). */
    Path log() {
        return process.log();
    }

    /** The log files of every process this instance ran, the first start's first. */
    List<Path> logs() {
        return IntStream.rangeClosed(1, incarnation)
                .mapToObj(i -> dir.resolve("coordinator-" + i + ".log")).toList();
    }

    /** The jar the current process runs. */
    Path jar() {
        return jar;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** {@code GET path} on this instance's REST API: the status and body, or status -1 when it does not answer. */
    HttpAnswer get(String path) {
        return get(httpPort, path, Duration.ofSeconds(5));
    }

    /**
     * {@code POST path} with the JSON {@code body} and the run's bearer token on this instance's REST API: the status
     * and body, or status -1 when it does not answer.
     */
    HttpAnswer post(String path, String body) {
        return write("POST", path, body);
    }

    /** {@code PUT path} with the JSON {@code body} and the run's bearer token, as {@link #post}. */
    HttpAnswer put(String path, String body) {
        return write("PUT", path, body);
    }

    /** {@code DELETE path} with the JSON {@code body} and the run's bearer token, as {@link #post}. */
    HttpAnswer delete(String path, String body) {
        return write("DELETE", path, body);
    }

    private HttpAnswer write(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                .timeout(Duration.ofSeconds(5)).header("Authorization", "Bearer " + REST_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        return send(request);
    }

    /**
     * {@code GET path} on this instance's probes port (as a Kubernetes probe asks), or status -1 within the timeout.
     */
    HttpAnswer probe(String path, Duration timeout) {
        return get(probesPort, path, timeout);
    }

    /** The port of the REST API. */
    int httpPort() {
        return httpPort;
    }

    private static HttpAnswer get(int port, String path, Duration timeout) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(timeout).GET().build();
        return send(request);
    }

    private static HttpAnswer send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new HttpAnswer(response.statusCode(), response.body(),
                    response.headers().firstValue("X-Cairn-Served-By").orElse(""));
        } catch (IOException e) {
            return new HttpAnswer(-1, e.toString(), "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new HttpAnswer(-1, "interrupted", "");
        }
    }

    /** A REST answer; {@code servedBy} is the instance (host:port) that owns the job, from X-Cairn-Served-By. */
    record HttpAnswer(int status, String body, String servedBy) {}

    /** Whether {@code servedBy} names this instance's REST API. */
    boolean isServer(String servedBy) {
        return servedBy.endsWith(":" + httpPort);
    }

    private static Path tokensFile(Path dir) {
        Path file = dir.resolve("rest-tokens.properties");
        try {
            Files.writeString(file, "faults.token=" + REST_TOKEN + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.stop(Duration.ofSeconds(40));
        }
    }

    @Override
    public String toString() {
        return "coordinator " + name + " (" + process + ")";
    }
}
