/** One ad as list_ads, get_ad and list_collection_ads return it. */
export interface ListedAd {
  id: string;
  brand_id: string;
  brand_name: string;
  brand_logo_path: string | null;
  category_id: string;
  category_name: string;
  type_id: string | null;
  type_name: string | null;
  tag_names: string[];
  created_at: string;
  requires_subscription: boolean;
  is_black_friday: boolean;
  is_top_picks: boolean;
  width: number;
  height: number;
  thumbhash: string;
  preview_path: string;
  is_clear: boolean;
  display_480_path: string | null;
  display_960_path: string | null;
  saved_at?: string;
}
