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
 * The tasks of a job that a rescale is checked against: from the spec in this instance's stores, with each task's
 * max parallelism, or from the job's view ({@code GET /jobs/{jobId}}) that the instance owning the job answered,
 * which names the tasks but, unless it carries a {@code max_parallelism}, not their max parallelism: the coordinator
 * checks that when it decides the rescale.
 */
final class JobTasks {

    private JobTasks() {
    }

    /** The tasks of the job's spec here; 404 when the job does not exist. */
    static List<SpecTask> local(CoordinatorState stores, String jobId) {
        if (stores.job(jobId).isEmpty()) {
            throw ApiException.notFound("job '" + jobId + "' does not exist (never registered)");
        }
        JobSpec spec = stores.spec(jobId)
                .orElseThrow(() -> new IllegalStateException("job '" + jobId + "' has a state but no spec"));
        return spec.getTasks().stream().map(SpecTask::of).toList();
    }

    /** The tasks of the job's view its owner answered. */
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
