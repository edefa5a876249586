package dev.cairn.sidecar.it;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import dev.cairn.sidecar.hook.SnapshotHook;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Sidecars started against a {@link CoordinatorTestBed}'s broker and topics, closed together: after each test
 * ({@link #stopAll}) or with the test class.
 */
final class TestSidecars implements AutoCloseable {

    private final CoordinatorTestBed bed;
    private final List<Sidecar> started = new CopyOnWriteArrayList<>();

    TestSidecars(CoordinatorTestBed bed) {
        this.bed = bed;
    }

    /**
     * A Java-hook sidecar config for the bed's broker and topics (snapshot timeout 30 s), signing with the job's
     * key as a deployed sidecar does.
     */
    SidecarConfig config(String jobId, String taskId, int subtaskIndex) {
        return secured(jobId, SidecarConfig.forTask(bed.bootstrapServers(), jobId, taskId, subtaskIndex));
    }

    /** A participant sidecar's config for the bed's broker and topics, signing with the job's key. */
    SidecarConfig participantConfig(String jobId, String participant) {
        return secured(jobId, SidecarConfig.forParticipant(bed.bootstrapServers(), jobId, participant));
    }

    private SidecarConfig secured(String jobId, SidecarConfig config) {
        SidecarConfig forBed = SidecarConfigCopies.withStartupTimeout(SidecarConfigCopies.withSnapshotTimeout(
                config.withTopics(bed.topics()), Duration.ofSeconds(30)), CoordinatorTestBed.WAIT);
        return bed.jobKey(jobId).map(forBed::withAuthKey).orElse(forBed);
    }

    /** Starts a sidecar with {@link #config} and {@code hook}. */
    Sidecar start(String jobId, String taskId, int subtaskIndex, SnapshotHook hook) {
        return start(config(jobId, taskId, subtaskIndex), hook);
    }

    /** Starts a sidecar with {@code config} and {@code hook}. */
    Sidecar start(SidecarConfig config, SnapshotHook hook) {
        return track(Sidecar.start(config, hook));
    }

    /** Starts a sidecar with the hook {@code config} names (HTTP, command, a class). */
    Sidecar start(SidecarConfig config) {
        return track(Sidecar.start(config));
    }

    private Sidecar track(Sidecar sidecar) {
        started.add(sidecar);
        return sidecar;
    }

    /** Closes the sidecars started so far. */
    void stopAll() {
        started.forEach(Sidecar::close);
        started.clear();
    }

    @Override
    public void close() {
        stopAll();
    }
}
