package dev.cairn.faults;

import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kit.storage.SnapshotStorages;
import dev.cairn.sample.worker.CounterWorker;
import dev.cairn.sample.worker.HookServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Task sidecars of a given {@link ReleaseJars} as OS processes
 * ({@code java -jar cairn-task-sidecar.jar --hook-kind http ...}, as docs/sidecars.md runs one), one per job (each job
 * here has one subtask, {@link #TASK} 0), each signing its records with its job's key ({@code --auth-key-file}, derived
 * from the run's master key). A sidecar can be frozen and resumed, and replaced by one of another release.
 *
 * <p>Each job's worker is the sample worker ({@link CounterWorker} behind a {@link HookServer}, which is all that
 * {@code SampleWorkerMain} runs) serving the HTTP hook on loopback from this JVM, and it stays when its sidecar is
 * replaced, as a worker process would. One sample worker cannot serve several jobs: on every completion it deletes
 * its checkpoint files in every job directory it wrote to up to the last subsumed id, and the ids of different jobs
 * do not line up, so it would delete other jobs' restore points. A worker process per job would double the number
 * of JVMs that start on a 2-core machine; the workers are not what an upgrade changes.
 */
final class SidecarProcesses implements AutoCloseable {

    static final String TASK = "worker";
    /** Small JVMs: a sidecar holds a Kafka consumer and producer and little else. */
    private static final List<String> JVM = List.of("-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final String bootstrapServers;
    private final CairnTopics topics;
    private final SidecarMasterKey masterKey;
    private final Path dir;
    private final Map<String, Deployed> sidecars = new LinkedHashMap<>();
    private final Map<String, HookServer> workers = new LinkedHashMap<>();
    private int starts;

    /** A sidecar process and the release it runs. */
    record Deployed(ReleaseJars release, ChildProcess process) {}

    SidecarProcesses(String bootstrapServers, CairnTopics topics, SidecarMasterKey masterKey, Path dir) {
        this.bootstrapServers = bootstrapServers;
        this.topics = topics;
        this.masterKey = masterKey;
        this.dir = dir;
    }

    /** Starts the sidecar of {@code jobId}'s subtask 0 with {@code release}'s jar, calling the job's worker. */
    void startSidecar(ReleaseJars release, String jobId) {
        if (sidecars.containsKey(jobId) && sidecars.get(jobId).process().isAlive()) {
            throw new IllegalStateException("the sidecar of " + jobId + " still runs");
        }
        List<String> command = new ArrayList<>(JVM);
        command.addAll(List.of("-jar", release.sidecarJar().toString(), "--bootstrap-servers=" + bootstrapServers,
                "--topic-prefix=" + topics.prefix(), "--job-id=" + jobId, "--task-id=" + TASK, "--subtask-index=0",
                "--hook-kind=http", "--hook-url=" + worker(jobId).baseUrl(), "--auth-key-file=" + jobKeyFile(jobId)));
        ChildProcess process = ChildProcess.startJava("sidecar " + jobId + " (" + release + ")", command,
                dir.resolve("sidecar-" + (++starts) + "-" + jobId + ".log"));
        sidecars.put(jobId, new Deployed(release, process));
    }

    /**
     * SIGTERMs the sidecar of {@code jobId}, waits until it has closed its clients, and starts one of {@code release}.
     */
    void replace(String jobId, ReleaseJars release) {
        sidecar(jobId).process().stop(Duration.ofSeconds(30));
        startSidecar(release, jobId);
    }

    /** SIGSTOPs the sidecar of {@code jobId}: it answers nothing until {@link #resume}. */
    void pause(String jobId) {
        sidecar(jobId).process().pause();
    }

    /** SIGCONTs the sidecar of {@code jobId}. */
    void resume(String jobId) {
        sidecar(jobId).process().resume();
    }

    /** The sidecar of {@code jobId} now. */
    Deployed sidecar(String jobId) {
        Deployed deployed = sidecars.get(jobId);
        if (deployed == null) {
            throw new IllegalStateException("no sidecar for " + jobId);
        }
        return deployed;
    }

    /** The job's sample worker, started on a free loopback port on first use, its snapshots under the job's base. */
    private HookServer worker(String jobId) {
        return workers.computeIfAbsent(jobId, job -> {
            CounterWorker worker = new CounterWorker(SnapshotStorages.defaults(), Duration.ZERO, 0, 0);
            try {
                return HookServer.start(worker, new InetSocketAddress("127.0.0.1", 0));
            } catch (IOException e) {
                worker.close();
                throw new UncheckedIOException("cannot start the sample worker of " + job, e);
            }
        });
    }

    /** The job's key, written once to {@code dir/keys/<job>.key} (owner only), as {@code cairn keys job} prints it. */
    private Path jobKeyFile(String jobId) {
        Path file = dir.resolve("keys").resolve(jobId + ".key");
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(file.getParent());
                Files.createFile(file,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(file, masterKey.jobKey(jobId).toBase64() + "\n", StandardCharsets.US_ASCII);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the key of " + jobId, e);
        }
    }

    /** Resumes any paused sidecar, SIGTERMs every sidecar at once (SIGKILL after a grace), then stops the workers. */
    @Override
    public void close() {
        List<ChildProcess> running = sidecars.values().stream().map(Deployed::process).filter(ChildProcess::isAlive)
                .toList();
        for (ChildProcess process : running) {
            process.resume();
            process.terminate();
        }
        running.forEach(p -> p.stop(Duration.ofSeconds(15)));
        workers.values().forEach(HookServer::close);
    }
}
