package dev.cairn.core.events;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The fields journal events share, read by name: each event names its job ({@code jobId}), those about one
 * checkpoint name it ({@code checkpointId}), those that set a timer its moment ({@link EventKind#setsTimer}).
 * Field positions are looked up once per event type.
 */
public final class EventFields {

    private static final ClassValue<int[]> POSITIONS = new ClassValue<>() {
        @Override
        protected int[] computeValue(Class<?> type) {
            Schema schema = SpecificData.get().getSchema(type);
            String timerField = EventKind.timerFieldOf(type);
            return new int[] {position(schema, "jobId"), position(schema, "checkpointId"),
                timerField == null ? -1 : position(schema, timerField)};
        }
    };

    private EventFields() {
    }

    /** The event's job id, {@code null} for an event without one. */
    public static String jobId(SpecificRecord event) {
        int position = positions(event)[0];
        Object value = position < 0 ? null : event.get(position);
        return value == null ? null : value.toString();
    }

    /** The checkpoint the event is about, {@code -1} when it is about none. */
    public static long checkpointId(SpecificRecord event) {
        int position = positions(event)[1];
        Object value = position < 0 ? null : event.get(position);
        return value instanceof Long id ? id : -1;
    }

    /** The moment of the timer the event sets, {@code -1} when it sets none. */
    public static long timerDueMs(SpecificRecord event) {
        int position = positions(event)[2];
        Object value = position < 0 ? null : event.get(position);
        return value instanceof Long due ? due : -1;
    }

    /** The event's type name, e.g. {@code CheckpointTriggered}. */
    public static String type(SpecificRecord event) {
        return event.getSchema().getName();
    }

    private static int[] positions(SpecificRecord event) {
        return POSITIONS.get(event.getClass());
    }

    private static int position(Schema schema, String name) {
        Schema.Field field = schema.getField(name);
        return field == null ? -1 : field.pos();
    }
}
