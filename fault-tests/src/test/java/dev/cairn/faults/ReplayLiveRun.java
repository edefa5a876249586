package dev.cairn.faults;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobStatus;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.TaskFinished;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/**
 * The live run of the replay campaign: one job with a participant, two tasks and scripted sidecars
 * ({@link ScriptedSidecars}) goes through every request and sidecar record there is, and a second job is registered,
 * suspended and removed. Requests go through the coordinator's REST API, which signs what it publishes, except the
 * status changes, which are produced signed as {@code cairn status} produces them ({@link SignedRequests}). Periodic
 * triggering is off in effect (an interval and minimum pause of an hour), so every checkpoint is one the run asked
 * for and answered, and none is pending when the run ends.
 */
final class ReplayLiveRun {

    static final String JOB = "replay-job";
    static final String REMOVED = "replay-removed";
    static final String PARTICIPANT = "enumerator";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String HOUR = "3600000";

    private final FaultCluster cluster;
    private final CoordinatorProcess coordinator;
    private final ScriptedSidecars sidecars;
    private final SignedRequests statuses;
    private final List<Long> savepoints = new ArrayList<>();

    private ReplayLiveRun(FaultCluster cluster, ScriptedSidecars sidecars, SignedRequests statuses) {
        this.cluster = cluster;
        this.coordinator = cluster.coordinators.get(0);
        this.sidecars = sidecars;
        this.statuses = statuses;
    }

    /** Runs the scenario on {@code cluster}'s first coordinator; returns the ids of the savepoints it took. */
    static List<Long> run(FaultCluster cluster) {
        String storage = cluster.dir.resolve("checkpoints").toUri().toString().replaceAll("/$", "");
        try (ScriptedSidecars sidecars = new ScriptedSidecars(cluster.brokers.bootstrapServers(), cluster.topics, JOB,
                PARTICIPANT, storage, cluster.masterKey.jobKey(JOB));
                SignedRequests statuses = new SignedRequests(cluster.brokers.bootstrapServers(), cluster.topics,
                        cluster.masterKey)) {
            ReplayLiveRun run = new ReplayLiveRun(cluster, sidecars, statuses);
            run.play(storage);
            return List.copyOf(run.savepoints);
        }
    }

    private void play(String storage) {
        register(JOB, "{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1},{\"taskId\":\"" + ScriptedSidecars.KEYED
                + "\",\"parallelism\":1}],\"config\":" + config(storage, 2) + ",\"participants\":[\"" + PARTICIPANT
                + "\"]}");
        register(REMOVED, "{\"tasks\":[{\"taskId\":\"only\",\"parallelism\":1}],\"config\":" + config(storage, 1)
                + "}");
        sidecars.start("source", 0);
        sidecars.start(ScriptedSidecars.KEYED, 0);
        complete(checkpoint("cp-1"));
        complete(checkpoint("cp-2"));

        long declinedByParticipant = checkpoint("cp-3");
        sidecars.participantDeclines(declinedByParticipant, "enumerator store down");
        awaitAborted(declinedByParticipant);
        long declinedByTask = checkpoint("cp-4");
        sidecars.participantAcknowledges(declinedByTask);
        awaitTasksTriggered(declinedByTask);
        sidecars.acknowledge(declinedByTask, "source", 0);
        sidecars.decline(declinedByTask, ScriptedSidecars.KEYED, 0, "disk full");
        awaitAborted(declinedByTask);

        long savepoint = trigger("/savepoints", "{\"triggerId\":\"sp-5\"}");
        complete(savepoint);
        savepoints.add(savepoint);

        sidecars.start("source", 0);
        long restorePoint = RestSnapshot.get(coordinator, "/jobs/" + JOB + "/checkpoints/latest-completed")
                .orElseThrow().get("id").asLong();
        sidecars.restoreFailed(restorePoint, "source", 0, "object of checkpoint " + restorePoint + " is corrupt");
        await("the restore point rejected", () -> !cluster.recorder.events(cluster.topics.journal(),
                RestorePointRejected.class, r -> r.getJobId().equals(JOB)).isEmpty());
        complete(checkpoint("cp-6"));

        long stop = trigger("/stop", "{\"triggerId\":\"stop-7\"}");
        complete(stop);
        savepoints.add(stop);
        awaitState(JOB, JobStatus.FINISHED);
        request("/restore", "{\"checkpointId\":" + savepoint + ",\"requestId\":\"restore-1\"}", "restore-1");
        awaitState(JOB, JobStatus.RUNNING);
        complete(checkpoint("cp-8"));
        request("/savepoints/dispose", "{\"checkpointId\":" + savepoint + ",\"requestId\":\"dispose-1\"}",
                "dispose-1");

        statuses.changeStatus(JOB, JobStatus.SUSPENDED);
        awaitState(JOB, JobStatus.SUSPENDED);
        request("/rescaling", "{\"parallelism\":{\"source\":2},\"requestId\":\"rescale-1\"}", "rescale-1");
        awaitState(JOB, JobStatus.RUNNING);
        sidecars.start("source", 1);
        complete(checkpoint("cp-9"));
        sidecars.finish(ScriptedSidecars.KEYED, 0);
        await("the sink finished", () -> !cluster.recorder.events(cluster.topics.journal(), TaskFinished.class,
                f -> f.getJobId().equals(JOB)).isEmpty());
        complete(checkpoint("cp-10"));

        statuses.changeStatus(REMOVED, JobStatus.SUSPENDED);
        awaitState(REMOVED, JobStatus.SUSPENDED);
        CoordinatorProcess.HttpAnswer removal = coordinator.delete("/jobs/" + REMOVED, "{\"requestId\":\"remove-1\"}");
        check(removal, "DELETE /jobs/" + REMOVED);
        await(REMOVED + " removed", () -> coordinator.get("/jobs/" + REMOVED).status() == 404);
    }

    private static String config(String storage, int retained) {
        return "{\"intervalMs\":" + HOUR + ",\"minPauseMs\":" + HOUR + ",\"timeoutMs\":60000,\"tolerableFailures\":100,"
                + "\"retained\":" + retained + ",\"storageBaseLocation\":\"" + storage + "\"}";
    }

    private void register(String job, String body) {
        check(coordinator.put("/jobs/" + job, body), "PUT /jobs/" + job);
        awaitState(job, JobStatus.RUNNING);
    }

    /** A forced checkpoint of the job under request id {@code requestId}, as {@link #trigger}. */
    private long checkpoint(String requestId) {
        return trigger("/checkpoints", "{\"type\":\"CHECKPOINT\",\"force\":true,\"triggerId\":\"" + requestId
                + "\"}");
    }

    /**
     * POSTs a trigger of the job ({@code path} under {@code /jobs/{job}}), whose body names its request id, and returns
     * the id of the checkpoint it started, once its participant is asked.
     */
    private long trigger(String path, String body) {
        String requestId = check(coordinator.post("/jobs/" + JOB + path, body), "POST " + path)
                .get("request-id").asText();
        return Awaitility.await(requestId + " asks its participant").atMost(WAIT).until(() -> cluster.recorder
                .events(cluster.topics.control(), ParticipantsTriggered.class, p -> p.getJobId().equals(JOB)
                        && requestId.equals(p.getRequestId())).stream().findFirst()
                .map(ParticipantsTriggered::getCheckpointId).orElse(null), id -> id != null);
    }

    /** The participant and every running subtask acknowledge checkpoint {@code id}, which then completes. */
    private void complete(long id) {
        sidecars.participantAcknowledges(id);
        awaitTasksTriggered(id);
        sidecars.acknowledgeAll(id);
        await("checkpoint " + id + " completed", () -> !cluster.recorder.events(cluster.topics.journal(),
                CheckpointCompleted.class, c -> c.getJobId().equals(JOB) && c.getCheckpointId() == id).isEmpty());
    }

    private void awaitTasksTriggered(long id) {
        await("checkpoint " + id + " triggers its tasks", () -> !cluster.recorder.events(cluster.topics.control(),
                CheckpointTriggered.class, t -> t.getJobId().equals(JOB) && t.getCheckpointId() == id).isEmpty());
    }

    private void awaitAborted(long id) {
        await("checkpoint " + id + " aborted", () -> !cluster.recorder.events(cluster.topics.journal(),
                CheckpointAborted.class, a -> a.getJobId().equals(JOB) && a.getCheckpointId() == id).isEmpty());
    }

    /** POSTs a request of the job that the coordinator answers with an outcome, and waits until it COMPLETED. */
    private void request(String path, String body, String requestId) {
        check(coordinator.post("/jobs/" + JOB + path, body), "POST " + path);
        Predicate<RequestOutcome> ended = o -> o.getJobId().equals(JOB) && o.getRequestId().equals(requestId)
                && o.getStatus() != RequestStatus.TRIGGERED;
        RequestOutcome outcome = Awaitility.await(requestId + " decided").atMost(WAIT).until(() -> cluster.recorder
                .events(cluster.topics.journal(), RequestOutcome.class, ended).stream().findFirst().orElse(null),
                o -> o != null);
        if (outcome.getStatus() != RequestStatus.COMPLETED) {
            throw new AssertionError(requestId + " of " + JOB + " failed: " + outcome.getMessage());
        }
    }

    private void awaitState(String job, JobStatus status) {
        await(job + " " + status, () -> RestSnapshot.get(coordinator, "/jobs/" + job)
                .map(view -> view.path("state").asText().equals(status.name())).orElse(false));
    }

    private static JsonNode check(CoordinatorProcess.HttpAnswer answer, String what) {
        if (answer.status() != 202) {
            throw new AssertionError(what + " answered " + answer.status() + ": " + answer.body());
        }
        return RestSnapshot.read(answer.body());
    }

    private static void await(String what, java.util.concurrent.Callable<Boolean> condition) {
        Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(condition);
    }
}
