// The search language of src/shared/search; imports only src/shared/model.
export {
  compileGuestSearch,
  compileTabSearch,
  matchAllGuests,
  parseGuestSearch,
  readMetric,
  type GuestPredicate,
  type ParsedGuestSearch,
  type TermPlan,
} from './guest-search.ts'
