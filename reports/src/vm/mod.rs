//! Reports of VM activity: threads, garbage collection, monitors, waits, allocation.
