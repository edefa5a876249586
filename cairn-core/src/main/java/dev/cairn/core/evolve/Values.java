package dev.cairn.core.evolve;

import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Shallow copies of Avro records to their own type, so every field is carried over. The state treats records as
 * immutable values, so a copy may share its field values; and unlike {@code newBuilder(other)} (a deep copy that
 * resolves classes by name through Avro's class security validator) it needs no trusted-package configuration.
 */
final class Values {

    private Values() {
    }

    /** A new record with the same field values; set fields on it before publishing it. */
    static <T extends SpecificRecordBase> T copy(T record, Supplier<T> empty) {
        T copy = empty.get();
        for (Schema.Field field : record.getSchema().getFields()) {
            copy.put(field.pos(), record.get(field.pos()));
        }
        return copy;
    }
}
