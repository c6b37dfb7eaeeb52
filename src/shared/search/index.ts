// The search language of src/shared/search; imports only src/shared/model.
export {
  compileGuestSearch,
  compileTabSearch,
  matchAllGuests,
  type GuestPredicate,
} from './guest-search.ts'
