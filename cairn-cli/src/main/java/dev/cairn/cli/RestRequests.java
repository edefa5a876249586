package dev.cairn.cli;

import dev.cairn.client.rest.CairnClient;
import dev.cairn.client.rest.RestException;
import dev.cairn.events.BackupType;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.TaskRescale;
import dev.cairn.events.TriggerRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The REST call ({@link CairnClient}) of each request the CLI sends with {@code --rest-url}, with the body the
 * coordinator's route takes (docs/rest.md): a stop-with-savepoint is {@code POST /jobs/{id}/stop}, a savepoint with
 * Flink's defaults {@code POST /jobs/{id}/savepoints}, any other trigger {@code POST /jobs/{id}/checkpoints}, a
 * restore {@code /restore}, a rescale {@code /rescaling}, a disposal {@code /savepoints/dispose}, a removal
 * {@code DELETE /jobs/{id}}. The request id goes in the body, so the outcome is found under it.
 */
final class RestRequests {

    private RestRequests() {
    }

    /**
     * Sends {@code envelope}; its future completes with the request id the API answered.
     *
     * @throws IllegalArgumentException for a request the REST API has no route for (a job spec, a status change)
     */
    static CompletableFuture<String> send(CairnClient client, RequestEnvelope envelope) {
        Object event = envelope.getEvent();
        if (event instanceof TriggerRequest t) {
            return trigger(client, t);
        }
        if (event instanceof RestoreJob r) {
            return client.restore(r.getJobId(), CairnClient.body("savepointPath", r.getSavepointPath(),
                    "checkpointId", r.getCheckpointId(), "restoreMode", r.getRestoreMode().name(),
                    "requestId", r.getRequestId()));
        }
        if (event instanceof RescaleJob r) {
            Map<String, Object> parallelism = new LinkedHashMap<>();
            for (TaskRescale task : r.getTasks()) {
                parallelism.put(task.getTaskId(), task.getParallelism());
            }
            return client.rescale(r.getJobId(), CairnClient.body("parallelism", parallelism, "targetDirectory",
                    r.getTargetLocation(), "restoreMode", r.getRestoreMode().name(), "requestId", r.getRequestId()));
        }
        if (event instanceof DisposeSavepoint d) {
            return client.disposeSavepoint(d.getJobId(), CairnClient.body("savepointPath", d.getSavepointPath(),
                    "checkpointId", d.getCheckpointId(), "requestId", d.getRequestId()));
        }
        if (event instanceof RemoveJob r) {
            return client.remove(r.getJobId(), r.getRequestId());
        }
        throw new IllegalArgumentException("a " + event.getClass().getSimpleName() + " is sent over Kafka only: "
                + "leave out --rest-url (and CAIRN_REST_URL)");
    }

    private static CompletableFuture<String> trigger(CairnClient client, TriggerRequest t) {
        RequestedOptions options = t.getOptions();
        String format = options == null || options.getSavepointFormat() == null ? null
                : options.getSavepointFormat().name();
        PostCheckpointAction action = t.getPostCheckpointAction();
        if (action != null && action != PostCheckpointAction.NONE) {
            return client.stop(t.getJobId(), CairnClient.body("targetDirectory", t.getTargetLocation(), "drain",
                    action == PostCheckpointAction.TERMINATE, "formatType", format, "triggerId", t.getRequestId()));
        }
        boolean flinkSavepoint = t.getType() == dev.cairn.events.CheckpointType.SAVEPOINT && t.getForce() == null
                && (options == null || options.getBackupType() == null && options.getUnalignedEnabled() == null
                        && options.getAlignedTimeoutMs() == null);
        if (flinkSavepoint) {
            return client.triggerSavepoint(t.getJobId(), CairnClient.body("targetDirectory", t.getTargetLocation(),
                    "formatType", format, "triggerId", t.getRequestId()));
        }
        BackupType backup = options == null ? null : options.getBackupType();
        return client.triggerCheckpoint(t.getJobId(), CairnClient.body("type", t.getType().name(), "force",
                t.getForce(), "checkpointType", backup == null ? null : backup.name(), "formatType", format,
                "targetLocation", t.getTargetLocation(), "unalignedEnabled",
                options == null ? null : options.getUnalignedEnabled(), "alignedTimeoutMs",
                options == null ? null : options.getAlignedTimeoutMs(), "triggerId", t.getRequestId()));
    }

    /** The message of a failed call, without the future's wrapping. */
    static String message(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof RestException || cause instanceof IllegalArgumentException ? cause.getMessage()
                : cause.toString();
    }
}
