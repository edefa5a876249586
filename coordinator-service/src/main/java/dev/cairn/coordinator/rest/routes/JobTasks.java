package dev.cairn.coordinator.rest.routes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.bodies.RescaleBodies.SpecTask;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.JobSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tasks of a job that a rescale is checked against, with each task's max parallelism: from the spec in this
 * instance's stores, or from the job's view ({@code GET /jobs/{jobId}}) that the instance owning the job answered,
 * whose tasks carry their {@code max_parallelism}. An owner of an earlier release answers a view without it: its
 * tasks are then checked by name only, and the coordinator checks the max parallelism when it decides the rescale.
 */
final class JobTasks {

    private JobTasks() {
    }

    /** The tasks of the job's spec here; 404 when the job does not exist. */
    static List<SpecTask> local(CoordinatorState stores, String jobId) {
        JobQueries.existing(stores, jobId);
        JobSpec spec = stores.spec(jobId)
                .orElseThrow(() -> new IllegalStateException("job '" + jobId + "' has a state but no spec"));
        return spec.getTasks().stream().map(SpecTask::of).toList();
    }

    /** The tasks of the job's view its owner answered; a task without a whole {@code max_parallelism} has none. */
    static List<SpecTask> ofView(byte[] jobView, String owner) {
        JsonNode tasks;
        try {
            tasks = Json.MAPPER.readTree(jobView).path("tasks");
        } catch (IOException e) {
            throw ApiException.unavailable("cannot check the request against the job's tasks: coordinator instance "
                    + owner + ", which owns the job, answered with a view that is not JSON (" + e.getMessage() + ")");
        }
        if (!tasks.isArray()) {
            throw ApiException.unavailable("cannot check the request against the job's tasks: coordinator instance "
                    + owner + ", which owns the job, answered with a view that names no tasks");
        }
        List<SpecTask> found = new ArrayList<>();
        for (JsonNode task : tasks) {
            JsonNode max = task.path("max_parallelism");
            found.add(new SpecTask(task.path("task_id").asText(), max.isInt() ? max.asInt() : null));
        }
        return found;
    }
}
