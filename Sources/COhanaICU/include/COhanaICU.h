#ifndef COHANA_ICU_H
#define COHANA_ICU_H
// Stable wrapper names over the system ICU (its symbols carry a version suffix).
int ohana_icu_placeholder(void);
#endif
