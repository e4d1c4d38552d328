/**
 * Scripted solutions, in semantic form, for tasks of the shipped benchmark
 * sites (bench/suites/apprentice-sites): one or two per area. The ceiling
 * check runs them through observe → resolve → act and scores them with the
 * task's own reward; a solution that cannot be carried out through our refs
 * is a coverage defect, whatever a model would choose.
 */
export const SHIPPED_SOLUTIONS: Record<string, string[]> = {
  'shop.add-to-cart.202': [
    'fill(<searchbox "Search products">, "yoga mat")',
    'click(<button "Search">)',
    'click(<link "Yoga mat">)',
    'click(<button "Add to cart">)',
  ],
  'checkout.shipping-country.japan': [
    'click(<button "Proceed to checkout">)',
    'select_option(<combobox "Country">, "Japan")',
    'click(<button "Continue to payment">)',
  ],
  'checkout.pay-with.paypal': [
    'click(<button "Proceed to checkout">)',
    'click(<button "Continue to payment">)',
    'check(<radio "PayPal">)',
    'click(<button "Continue to review">)',
    'check(<checkbox "I agree to the terms and conditions">)',
    'click(<button "Place order">)',
  ],
  'forum.comment.7': [
    'click(<link "How do I reset my router?">)',
    'fill(<textbox "Your comment">, "Hold the reset button for 30 seconds.")',
    'click(<button "Post comment">)',
  ],
  'admin.customer-group.5': [
    'click(<link "Customers">)',
    'fill(<searchbox "Search customers">, "Hannah Becker")',
    'click(<button "Search">)',
    'click(<link "Edit">)',
    'select_option(<combobox "Customer group">, "Retailer")',
    'click(<button "Save customer">)',
  ],
  'settings.newsletter-off': [
    'click(<link "Account settings">)',
    'click(<link "Notifications">)',
    'uncheck(<checkbox "Weekly newsletter">)',
    'click(<button "Save preferences">)',
  ],
};
